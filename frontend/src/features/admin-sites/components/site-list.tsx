import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { Translated } from '../../../components/translated';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { notify } from '../../../stores/notifications-slice';
import { useDeleteSiteMutation, useGetAdminSitesQuery } from '../api/admin-sites-api';
import { siteEditPath } from '../utils/site-form';

/**
 * Route `/sites` (docs/product.md#sites): the library's sites with slug, contact address and room
 * count; add, edit and delete (never the first site; a site with rooms is refused). An admin of
 * some sites only (docs/product.md#roles) sees hers, and may edit them but not add or delete one.
 */
export function SiteList({ allSites = true }: { allSites?: boolean }) {
  const { t } = useTranslation('admin-sites');
  const { data, error } = useGetAdminSitesQuery();
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <Page title={t('list.title')}>
      <p>{t('list.intro')}</p>
      {allSites ? (
        <p>
          <Link className="button button--primary" to="/site-add">
            {t('list.add')}
          </Link>
        </p>
      ) : null}
      <section aria-labelledby="site-list-heading">
        <h2 id="site-list-heading" ref={heading} tabIndex={-1}>
          {t('list.heading')}
        </h2>
        <LoadingContainer
          data={data}
          error={error}
          backLink={{ to: '/', label: t('back-to-dashboard') }}
        >
          {({ content }) => (
            <SiteTable
              sites={content}
              canDelete={allSites}
              onDeleted={() => heading.current?.focus()}
            />
          )}
        </LoadingContainer>
      </section>
    </Page>
  );
}

interface SiteTableProps {
  sites: Site[];
  /** Whether sites may be deleted here: only by an admin of all sites. */
  canDelete: boolean;
  /** Focus goes somewhere sensible once the row (and its delete button) is gone. */
  onDeleted: () => void;
}

function SiteTable({ sites, canDelete, onDeleted }: SiteTableProps) {
  const { t } = useTranslation('admin-sites');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const [deleting, setDeleting] = useState<Site | null>(null);
  const [deleteSite, removal] = useDeleteSiteMutation();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteSite(deleting.id).unwrap();
    } catch {
      return; // shown in the dialog
    }
    dispatch(
      notify({ title: t('list.deleted', { name: textIn(deleting.name, deleting.nameEn) }) }),
    );
    setDeleting(null);
    onDeleted();
  };

  return (
    <>
      <TableRegion label={t('list.caption')}>
        <table className="data-table">
          <caption className="visually-hidden">{t('list.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('list.name')}</th>
              <th scope="col">{t('list.slug')}</th>
              <th scope="col">{t('list.contact')}</th>
              <th scope="col" className="data-table__number">
                {t('list.rooms')}
              </th>
              <th scope="col">{t('list.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {sites.map((site) => {
              const name = textIn(site.name, site.nameEn);
              return (
                <tr key={site.id}>
                  <td>
                    <Translated german={site.name} english={site.nameEn} />
                  </td>
                  <td>
                    <code>{site.slug}</code>
                  </td>
                  <td className="data-table__break">{site.contactEmail ?? t('list.no-contact')}</td>
                  <td className="data-table__number">{site.roomCount}</td>
                  <td>
                    <div className="table-actions">
                      <Link
                        className="button button--secondary button--small"
                        to={siteEditPath(site.id)}
                      >
                        {t('list.edit')}
                        <span className="visually-hidden"> {name}</span>
                      </Link>
                      {site.id === FIRST_SITE_ID || !canDelete ? null : (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          onClick={() => {
                            removal.reset();
                            setDeleting(site);
                          }}
                        >
                          {t('list.delete')}
                          <span className="visually-hidden"> {name}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      {deleting ? (
        <ConfirmDialog
          title={t('list.delete-title')}
          confirmLabel={t('list.delete-confirm')}
          cancelLabel={t('form.cancel')}
          busy={removal.isLoading}
          error={removal.error}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        >
          <p>{t('list.delete-question', { name: textIn(deleting.name, deleting.nameEn) })}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
