import type { HistoryEntry } from '../../../api/types';
import { EmptyState } from '../../../components/empty-state';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { actorLabel, formatTimestamp, groupHistory, whatLabel } from '../utils/history';

interface HistoryTableProps {
  entries: readonly HistoryEntry[];
  caption: string;
}

/** What happened, when and by whom, oldest first. */
export function HistoryTable({ entries, caption }: HistoryTableProps) {
  const { t } = useTranslation('admin-history');
  if (entries.length === 0) {
    return <EmptyState>{t('empty.no-entries', { ns: 'common' })}</EmptyState>;
  }
  return (
    <TableRegion label={caption}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('column.at')}</th>
            <th scope="col">{t('column.what')}</th>
            <th scope="col">{t('column.actor')}</th>
          </tr>
        </thead>
        <tbody>
          {groupHistory(entries).map(({ first, last, count }, index) => {
            const what = whatLabel(first);
            const actor = actorLabel(first.actor);
            const from = formatTimestamp(first.at);
            const until = formatTimestamp(last.at);
            return (
              <tr key={`${first.at}-${index}`}>
                <td className="data-table__nowrap">
                  <time dateTime={first.at}>{from}</time>
                  {count > 1 && until !== from ? (
                    <>
                      {' – '}
                      <time dateTime={last.at}>{until}</time>
                    </>
                  ) : null}
                </td>
                <td>
                  {t(what.key, what.params)}
                  {first.reason ? `: ${first.reason}` : null}
                  {count > 1 ? ` ${t('times', { count })}` : null}
                </td>
                <td>{t(actor.key, actor.params)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
