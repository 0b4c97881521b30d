import { useState, type FormEvent } from 'react';
import { useConfig } from '../../../app/config-context';
import { ErrorBox } from '../../../components/error-box';
import { InputField } from '../../../components/form-field';
import { useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { seatsCsvPath, useImportSeatsCsvMutation, type PlanSeat } from '../api/seat-plan-api';
import { refusedSeatErrors, refusesFile } from '../utils/seat-plan-errors';
import { fieldMessage } from '../../../lib/field-message';

const FILE_ID = 'seats-csv-file';

/**
 * The plan as a spreadsheet: the export's link and the import, which replaces every seat with the
 * file's rows (a seat keeps its id by its label). A refused file names its rows: seat N is the
 * N-th row after the header, so its line is N + 2 (blank lines aside).
 */
export function SeatPlanCsv({
  roomId,
  onImported,
}: {
  roomId: string;
  /** The plan's seats as the import set them. */
  onImported: (seats: PlanSeat[]) => void;
}) {
  const { t } = useTranslation('admin-rooms');
  const { baseApiUrl } = useConfig();
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [status, setStatus] = useState('');
  const [importCsv, importing] = useImportSeatsCsvMutation();
  const rows = refusedSeatErrors(importing.error);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus('');
    setMissing(file === null);
    if (!file) return;
    try {
      const answer = await importCsv({ roomId, csv: file }).unwrap();
      onImported(answer.seats);
      setStatus(t('seats.csv-imported', { count: answer.seats.length }));
    } catch {
      // shown below, by line
    }
  };

  return (
    <section className="seat-csv" aria-labelledby="seat-csv-heading">
      <h2 id="seat-csv-heading">{t('seats.csv-heading')}</h2>
      <p>
        <a href={resolveApiUrl(baseApiUrl, seatsCsvPath(roomId))} download="seats.csv">
          {t('seats.csv-export')}
        </a>
      </p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <InputField
          id={FILE_ID}
          type="file"
          accept=".csv,text/csv"
          label={t('seats.csv-file')}
          hint={t('seats.csv-hint')}
          required
          error={missing ? fieldMessage(t, { key: 'required' }) : undefined}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setMissing(false);
          }}
        />
        {importing.error && refusesFile(importing.error) ? (
          <div className="error-box" role="alert">
            <p className="error-box__message">{t('seats.csv-unreadable')}</p>
          </div>
        ) : importing.error && !rows.length ? (
          <ErrorBox error={importing.error} reveal />
        ) : null}
        {rows.length ? (
          <div className="error-box" role="alert">
            <p className="error-box__message">{t('seats.csv-refused')}</p>
            <ul>
              {rows.map((row) => (
                <li key={`${row.index}-${row.field}`}>
                  {t('seats.csv-line', {
                    line: row.index + 2,
                    field: t([`seats.field.${row.field}`, 'seats.field.row']),
                    message: fieldMessage(t, row.error),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={importing.isLoading}>
            {t('seats.csv-import')}
          </button>
        </div>
        <p role="status">{status}</p>
      </form>
    </section>
  );
}
