import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import {
  InputField,
  RefusalScope,
  RequiredHint,
  SelectField,
} from '../../../components/form-field';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { CALENDAR_ACCEPT } from '@rr/contracts/files';
import { HolidayImportInput } from '@rr/contracts/holidays';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { formCheck } from '../../../lib/form-check';
import { notify } from '../../../stores/notifications-slice';
import { useGetHolidaySitesQuery, useImportHolidaysMutation } from '../api/admin-holidays-api';
import { useGetClosureRoomsQuery } from '../api/admin-closures-api';
import { holidayListPath } from '../utils/holiday-form';
import type { ClosureResult, HolidayImportResult } from '../../../api/types';
import { closureResultText } from '../utils/closure-text';
import { ClosureDialog } from './closure-dialog';

const FIELDS = ['file'] as const;
/** docs/product.md#validation, holiday import: the file is required, a calendar, at most 5 MB. */
const checkImport = formCheck(HolidayImportInput, (values: { file: File | null }) => values);
const idOf = () => 'holiday-import-file';

/**
 * Route `/holiday-import`: import holidays from an iCalendar file, with several sites for every
 * site or one (docs/product.md#sites; an admin of some sites imports for one of hers).
 */
export function HolidayImport({ allSites }: { allSites: boolean }) {
  const { t } = useTranslation('admin-holidays');
  const textIn = useTextIn();
  const sites = useGetHolidaySitesQuery().data?.content ?? [];
  const [chosenSite, setChosenSite] = useState('');
  // An admin of some sites imports for one of hers (the first unless she chooses).
  const siteId = chosenSite || (allSites ? '' : (sites[0]?.id ?? ''));
  const rooms = useGetClosureRoomsQuery();
  const [importedFor, setImportedFor] = useState('');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [importHolidays, { isLoading, error, reset }] = useImportHolidaysMutation();
  const form = useValidatedForm(checkImport, FIELDS, idOf);
  const refusal = useRefusal(error, { file: idOf() });
  // The imported holidays from today on whose slots are still to be asked about, one dialog a day
  // (docs/product.md#closures); days without open slots pass without a question.
  const [toAsk, setToAsk] = useState<HolidayImportResult['upcoming'] | null>(null);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    reset();
    form.revalidate({ file: chosen });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.validate({ file }) || !file) return;
    let result: Awaited<ReturnType<ReturnType<typeof importHolidays>['unwrap']>>;
    try {
      result = await importHolidays({ file, siteId: siteId || undefined }).unwrap();
      setImportedFor(siteId);
    } catch {
      return; // shown by the error box
    }
    const { imported, skipped, duplicates, outOfWindow, ignored, window } = result;
    const details =
      skipped > 0
        ? ` ${t('import.result-details', {
            duplicates,
            outOfWindow,
            ignored,
            from: formatDate(window.from),
            until: formatDate(window.until),
          })}`
        : '';
    dispatch(
      notify({
        title: t('import.done'),
        description: `${t('import.result', { imported, skipped })}${details}`,
        type: imported > 0 ? 'success' : 'info',
      }),
    );
    if (result.upcoming.length) setToAsk(result.upcoming);
    else await navigate(holidayListPath());
  };

  const next = useCallback(
    (result: ClosureResult | null = null) => {
      if (result)
        dispatch(
          notify({
            title: t('closure.done'),
            description: closureResultText(t, result),
          }),
        );
      const rest = toAsk?.slice(1) ?? [];
      setToAsk(rest);
      if (rest.length === 0) void navigate(holidayListPath());
    },
    [toAsk, dispatch, navigate, t],
  );
  const asked = toAsk?.[0];
  // A site's holidays close that site's rooms only.
  // (null while the rooms load; undefined: holidays of every site, all rooms.)
  const siteRooms = importedFor
    ? rooms.data
      ? rooms.data.content.filter((r) => r.siteId === importedFor).map((r) => r.id)
      : null
    : undefined;
  const toList = useCallback(() => void navigate(holidayListPath()), [navigate]);

  return (
    <Page title={t('import.title')}>
      <p>{t('import.intro')}</p>
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={submit}>
          <RequiredHint />
          <ErrorBox refusal={refusal} />
          <InputField
            id={idOf()}
            type="file"
            accept={CALENDAR_ACCEPT}
            label={t('import.file')}
            hint={t('import.file-hint')}
            required
            error={form.messageOf('file')}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
          />
          {sites.length > 1 || (!allSites && sites.length > 0) ? (
            <SelectField
              id="holiday-import-site"
              label={t('form.site')}
              hint={t('form.site-hint')}
              value={siteId}
              onChange={(event) => setChosenSite(event.target.value)}
              options={[
                ...(allSites ? [{ value: '', label: t('form.all-sites') }] : []),
                ...sites.map((site) => ({ value: site.id, label: textIn(site.name, site.nameEn) })),
              ]}
            />
          ) : null}
          <div className="form__actions">
            <button
              type="submit"
              className="button button--primary"
              disabled={isLoading || toAsk !== null}
            >
              {isLoading ? t('import.submitting') : t('import.submit')}
            </button>
            <Link className="button button--secondary" to={holidayListPath()}>
              {t('form.cancel')}
            </Link>
          </div>
        </form>
      </RefusalScope>
      {asked && siteRooms?.length === 0 ? <NothingToAsk onDone={toList} /> : null}
      {asked && (siteRooms === undefined || (siteRooms && siteRooms.length > 0)) ? (
        <ClosureDialog
          key={asked.date}
          scope={{
            fromDate: asked.date,
            untilDate: asked.date,
            ...(siteRooms ? { roomIds: siteRooms } : {}),
          }}
          defaultReason={asked.name}
          title={t('closure.day-title', { date: formatDate(asked.date), name: asked.name })}
          onDone={next}
          onNothing={next}
        />
      ) : null}
    </Page>
  );
}

/** A site without rooms has nothing to close: on to the list. */
function NothingToAsk({ onDone }: { onDone: () => void }) {
  useEffect(() => onDone(), [onDone]);
  return null;
}
