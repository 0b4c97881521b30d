import { RadioGroupField } from '../../../components/radio-group';
import { SelectField } from '../../../components/form-field';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetIntegrationSitesQuery } from '../api/admin-integrations-api';
import type { SiteScope } from '../utils/integrations';

/** The library's sites, and whether there are several (only then is a choice offered). */
export function useIntegrationSites() {
  const { data } = useGetIntegrationSitesQuery();
  const sites = data?.content ?? [];
  return { sites, several: sites.length > 1 };
}

interface SiteScopeFieldProps {
  /** The group's id; the select of the sites is `${id}-sites`. */
  id: string;
  legend: string;
  /** The label of the select of the sites. */
  sitesLabel: string;
  /** What a site is chosen by: its slug (a role) or its id (a webhook). */
  by: 'slug' | 'id';
  value: SiteScope;
  onChange: (value: SiteScope) => void;
  /** Translated error: no site chosen for some sites. */
  error?: string | undefined;
}

/**
 * All sites or some (docs/product.md#roles-for-some-sites, #integrations): a choice of the two,
 * and for some sites a multi-select of the sites. Shown only when the library has several sites;
 * with one, everything is for all sites as before.
 */
export function SiteScopeField({
  id,
  legend,
  sitesLabel,
  by,
  value,
  onChange,
  error,
}: SiteScopeFieldProps) {
  const { t } = useTranslation('admin-integrations');
  const textIn = useTextIn();
  const { sites, several } = useIntegrationSites();
  // A site chosen before it was deleted stays listed by what names it, so it can be taken out.
  const known = new Set(sites.map((site) => site[by]));
  const options = [
    ...sites.map((site) => ({ value: site[by], label: textIn(site.name, site.nameEn) })),
    ...(value ?? []).filter((v) => !known.has(v)).map((v) => ({ value: v, label: v })),
  ];
  if (!several && value === null) return null;
  return (
    <div className="site-scope">
      <RadioGroupField
        id={id}
        legend={legend}
        options={[
          { value: 'all', label: t('scope.all') },
          { value: 'some', label: t('scope.some') },
        ]}
        value={value === null ? 'all' : 'some'}
        onChange={(choice) => onChange(choice === 'all' ? null : (value ?? []))}
      />
      {value !== null ? (
        <SelectField
          id={`${id}-sites`}
          label={sitesLabel}
          hint={t('scope.sites-hint')}
          required
          multiple
          size={Math.min(Math.max(options.length, 2), 8)}
          value={value}
          error={error}
          options={options}
          onChange={(event) =>
            onChange(Array.from(event.target.selectedOptions, (option) => option.value))
          }
        />
      ) : null}
    </div>
  );
}
