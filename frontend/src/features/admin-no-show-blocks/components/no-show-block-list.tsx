import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import type { NoShowBlock } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useGetNoShowBlocksQuery,
  useLiftNoShowBlockMutation,
} from '../api/admin-no-show-blocks-api';

/**
 * Route `/no-show-blocks` (docs/product.md#no-show-rule): the addresses the no-show rule blocks
 * now, as the API decides it, and "lift block" behind a confirmation.
 */
export function NoShowBlockList() {
  const { t } = useTranslation('admin-blacklist');
  const dispatch = useAppDispatch();
  const { data, error, isFetching } = useGetNoShowBlocksQuery();
  const [lifting, setLifting] = useState<NoShowBlock | null>(null);
  const [lift, liftState] = useLiftNoShowBlockMutation();

  const nameOf = (block: NoShowBlock) => block.email ?? t('no-shows.erased');

  const confirmLift = async () => {
    if (!lifting) return;
    try {
      await lift(lifting.key).unwrap();
    } catch {
      return; // shown in the dialog
    }
    dispatch(notify({ title: t('no-shows.lifted', { email: nameOf(lifting) }) }));
    setLifting(null);
  };

  return (
    <Page title={t('no-shows.title')}>
      <p>{t('no-shows.intro')}</p>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/', label: t('back-to-dashboard') }}
      >
        {({ content }) => (
          <>
            <p className="result-count" role="status">
              {isFetching
                ? t('loading', { ns: 'common' })
                : t('no-shows.count', { count: content.length })}
            </p>
            {content.length === 0 ? (
              <EmptyState>{t('no-shows.empty')}</EmptyState>
            ) : (
              <TableRegion label={t('no-shows.caption')} busy={isFetching}>
                <table className="data-table">
                  <caption className="visually-hidden">{t('no-shows.caption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('no-shows.column.email')}</th>
                      <th scope="col">{t('no-shows.column.days')}</th>
                      <th scope="col">{t('no-shows.column.until')}</th>
                      <th scope="col">{t('list.column.actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {content.map((block) => (
                      <tr key={block.key}>
                        <td className="data-table__break">{nameOf(block)}</td>
                        <td>{block.noShowDays.map(formatDate).join(', ')}</td>
                        <td className="data-table__nowrap">{formatDate(block.blockedUntil)}</td>
                        <td>
                          <button
                            type="button"
                            className="button button--secondary"
                            onClick={() => {
                              liftState.reset();
                              setLifting(block);
                            }}
                          >
                            {t('no-shows.lift')}
                            <span className="visually-hidden"> ({nameOf(block)})</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            )}
          </>
        )}
      </LoadingContainer>
      {lifting ? (
        <ConfirmDialog
          title={t('no-shows.lift-title')}
          confirmLabel={t('no-shows.lift-confirm')}
          cancelLabel={t('form.cancel')}
          busy={liftState.isLoading}
          error={liftState.error}
          onConfirm={confirmLift}
          onCancel={() => setLifting(null)}
        >
          <p>
            {t('no-shows.lift-question', {
              email: nameOf(lifting),
              date: formatDate(lifting.blockedUntil),
            })}
          </p>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
