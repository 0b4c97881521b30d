import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Holiday } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { Translated } from '../../../components/translated';
import { parseYear } from '../../../lib/calendar';
import { formatDate, todayIso } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { SelectField } from '../../../components/form-field';
import {
  useDeleteHolidayMutation,
  useGetHolidaySitesQuery,
  useGetHolidaysOfYearQuery,
} from '../api/admin-holidays-api';

/**
 * Route `/holiday-list`: the holidays of a year (query `year`, default the current year). With
 * several sites (and for an admin of some sites) each holiday names its site ("all sites": the
 * whole system's), and the list can show the holidays of one site's rooms (query `site`: the
 * whole system's and the site's).
 */
export function HolidayList({ allSites }: { allSites: boolean }) {
  const { t } = useTranslation('admin-holidays');
  const textIn = useTextIn();
  const [searchParams, setSearchParams] = useSearchParams();
  // The library's year, not the device's (docs/product.md#configuration).
  const [currentYear] = useState(() => Number(todayIso().slice(0, 4)));
  const year = parseYear(searchParams.get('year')) ?? currentYear;
  const siteId = searchParams.get('site') ?? '';
  const { currentData, error } = useGetHolidaysOfYearQuery({ year, siteId: siteId || undefined });
  const sites = useGetHolidaySitesQuery().data?.content ?? [];
  const severalSites = sites.length > 1;
  const siteNames = new Map(sites.map((site) => [site.id, textIn(site.name, site.nameEn)]));
  const yearHeading = useRef<HTMLHeadingElement>(null);

  const show = (next: number, site: string) =>
    setSearchParams({ year: String(next), ...(site ? { site } : {}) });
  const showYear = (next: number) => show(next, siteId);

  return (
    <Page title={t('list.title')}>
      <ul className="link-row">
        <li>
          <Link to="/holiday-add">{t('list.add')}</Link>
        </li>
        <li>
          <Link to="/holiday-import">{t('list.import')}</Link>
        </li>
      </ul>
      {severalSites ? (
        <SelectField
          id="holiday-site-filter"
          label={t('list.site-filter')}
          value={siteId}
          onChange={(event) => show(year, event.target.value)}
          options={[
            { value: '', label: t('list.all-sites') },
            ...sites.map((site) => ({ value: site.id, label: textIn(site.name, site.nameEn) })),
          ]}
        />
      ) : null}
      <section aria-labelledby="holiday-year">
        <div className="period-nav">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => showYear(year - 1)}
          >
            <span aria-hidden="true">‹ </span>
            {t('list.previous-year')}
          </button>
          <h2
            id="holiday-year"
            className="period-nav__title"
            ref={yearHeading}
            tabIndex={-1}
            aria-live="polite"
          >
            {t('list.year', { year })}
          </h2>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => showYear(year + 1)}
          >
            {t('list.next-year')}
            <span aria-hidden="true"> ›</span>
          </button>
        </div>
        <LoadingContainer
          data={currentData}
          error={error}
          backLink={{ to: '/', label: t('back-to-dashboard') }}
        >
          {({ content }) =>
            content.length === 0 ? (
              <EmptyState>{t('empty.no-holidays', { ns: 'common' })}</EmptyState>
            ) : (
              <HolidayTable
                year={year}
                holidays={content}
                siteNames={severalSites || !allSites ? siteNames : null}
                onDeleted={() => yearHeading.current?.focus()}
              />
            )
          }
        </LoadingContainer>
      </section>
    </Page>
  );
}

interface HolidayTableProps {
  year: number;
  holidays: Holiday[];
  /** With several sites, the sites' names by id (a column of the holiday's site); else null. */
  siteNames: ReadonlyMap<string, string> | null;
  /** Focus goes somewhere sensible once the row (and its delete button) is gone. */
  onDeleted: () => void;
}

function HolidayTable({ year, holidays, siteNames, onDeleted }: HolidayTableProps) {
  const { t } = useTranslation('admin-holidays');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const [deleting, setDeleting] = useState<Holiday | null>(null);
  const [deleteHoliday, removal] = useDeleteHolidayMutation();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteHoliday(deleting.id).unwrap();
    } catch {
      return; // shown in the dialog
    }
    dispatch(
      notify({
        title: t('list.deleted', { name: deleting.name, date: formatDate(deleting.date) }),
      }),
    );
    setDeleting(null);
    onDeleted();
  };

  return (
    <>
      <div className="table-wrap">
        <table className="data-table">
          <caption className="visually-hidden">{t('list.caption', { year })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('list.date')}</th>
              <th scope="col">{t('list.name')}</th>
              <th scope="col">{t('list.description')}</th>
              {siteNames ? <th scope="col">{t('list.site')}</th> : null}
              <th scope="col">{t('list.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {holidays.map((holiday) => {
              const what = `${textIn(holiday.name, holiday.nameEn)} ${formatDate(holiday.date)}`;
              return (
                <tr key={holiday.id}>
                  <td className="data-table__nowrap">{formatDate(holiday.date)}</td>
                  <td>
                    <Translated german={holiday.name} english={holiday.nameEn} />
                  </td>
                  <td>
                    <Translated german={holiday.description} english={holiday.descriptionEn} />
                  </td>
                  {siteNames ? (
                    <td>
                      {holiday.siteId ? (siteNames.get(holiday.siteId) ?? '') : t('list.all-sites')}
                    </td>
                  ) : null}
                  <td>
                    <div className="table-actions">
                      <Link
                        className="button button--secondary button--small"
                        to={`/holiday-edit/${encodeURIComponent(holiday.id)}`}
                      >
                        {t('list.edit')}
                        <span className="visually-hidden"> {what}</span>
                      </Link>
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        onClick={() => {
                          removal.reset();
                          setDeleting(holiday);
                        }}
                      >
                        {t('list.delete')}
                        <span className="visually-hidden"> {what}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
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
          <p>
            {t('list.delete-question', {
              name: deleting.name,
              date: formatDate(deleting.date),
            })}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
