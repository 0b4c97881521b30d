import type { HistoryEntry } from '../../../api/types';
import { EmptyState } from '../../../components/empty-state';
import { useTranslation } from '../../../i18n/i18n-context';
import { actorLabel, formatTimestamp, sortHistory, whatLabel } from '../utils/history';

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
    <div className="table-wrap">
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
          {sortHistory(entries).map((entry, index) => {
            const what = whatLabel(entry);
            const actor = actorLabel(entry.actor);
            return (
              <tr key={`${entry.at}-${index}`}>
                <td className="data-table__nowrap">
                  <time dateTime={entry.at}>{formatTimestamp(entry.at)}</time>
                </td>
                <td>{t(what.key, what.params)}</td>
                <td>{t(actor.key, actor.params)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
