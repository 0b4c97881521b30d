import type { Room, Site } from '../../../api/types';
import { SelectField } from '../../../components/form-field';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetReportSitesQuery } from '../api/reports-api';

/**
 * The site filter of the reports and insights (docs/product.md#sites): the sites the user reaches
 * (the API answers hers only), offered only when there are several; a library of one site (or a
 * user of one site) sees no site select. The value is the site's slug, '' for every site.
 */
export function useReportSites(): Site[] {
  return useGetReportSitesQuery().data?.content ?? [];
}

/** The rooms of the site with the slug ('' : every room). */
export function roomsOfSite(rooms: readonly Room[], sites: readonly Site[], slug: string): Room[] {
  if (slug === '') return [...rooms];
  const site = sites.find((candidate) => candidate.slug === slug);
  return rooms.filter((room) => room.siteId === site?.id);
}

export function SiteFilter({
  id,
  sites,
  value,
  onChange,
}: {
  id: string;
  sites: readonly Site[];
  value: string;
  onChange: (slug: string) => void;
}) {
  const { t } = useTranslation('reports');
  const textIn = useTextIn();
  if (sites.length < 2) return null;
  return (
    <SelectField
      id={id}
      label={t('site-filter.site')}
      value={value}
      options={[
        { value: '', label: t('site-filter.all-sites') },
        ...sites.map((site) => ({ value: site.slug, label: textIn(site.name, site.nameEn) })),
      ]}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
