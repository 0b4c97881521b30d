import { useState, type FormEvent } from 'react';
import { LOGO_ACCEPT, LOGO_TYPES, MAX_LOGO_BYTES } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { InputField } from '../../../components/form-field';
import { StaffForm } from '../../../components/staff-form';
import { useRefusal } from '../../../hooks/use-refusal';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { notify } from '../../../stores/notifications-slice';
import { ImageRemoval } from '../../../components/image-removal';
import { useRemoveSiteLogoMutation, useSetSiteLogoMutation } from '../api/admin-sites-api';

const FILE_ID = 'site-logo-file';

/** Whether the browser says the file is a logo's type (the server checks its bytes). */
const isLogoType = (file: File) => (LOGO_TYPES as readonly string[]).includes(file.type);

/**
 * A site's logo (docs/product.md#sites): the present one with its removal, and the upload of a
 * new one (PNG, JPEG or WebP, at most 512 KiB; the server checks the content).
 */
export function SiteLogoForm({ site }: { site: Site }) {
  const { t } = useTranslation('admin-sites');
  const { baseApiUrl } = useConfig();
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const name = textIn(site.name, site.nameEn);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [setLogo, upload] = useSetSiteLogoMutation();
  const [removeLogo, removal] = useRemoveSiteLogoMutation();
  const refusal = useRefusal(upload.error, { image: FILE_ID });

  const problemOf = (chosen: File | null) =>
    !chosen
      ? t('logo.required')
      : !isLogoType(chosen)
        ? t('logo.type')
        : chosen.size > MAX_LOGO_BYTES
          ? t('logo.size')
          : undefined;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = problemOf(file);
    setFileError(problem);
    if (problem || !file) {
      document.getElementById(FILE_ID)?.focus();
      return;
    }
    try {
      await setLogo({ id: site.id, logo: file }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('logo.saved', { name }) }));
  };

  const confirmRemove = async (): Promise<boolean> => {
    try {
      await removeLogo(site.id).unwrap();
    } catch {
      return false; // shown in the question
    }
    dispatch(notify({ title: t('logo.removed', { name }) }));
    return true;
  };

  return (
    <section className="site-logo" aria-labelledby="site-logo-heading">
      <h2 id="site-logo-heading">{t('logo.title')}</h2>
      {site.logoUrl ? (
        <img
          className="site-logo__preview"
          src={resolveApiUrl(baseApiUrl, site.logoUrl)}
          alt={t('logo.alt', { name })}
        />
      ) : (
        <p>{t('logo.none')}</p>
      )}
      <ImageRemoval
        hasImage={site.logoUrl !== null}
        removal={removal}
        onRemove={confirmRemove}
        texts={{
          remove: t('logo.remove'),
          title: t('logo.remove-title'),
          question: t('logo.remove-question', { name }),
          confirm: t('logo.remove-confirm'),
          cancel: t('form.cancel'),
        }}
      />
      <StaffForm refusal={refusal} onSubmit={submit}>
        <InputField
          id={FILE_ID}
          type="file"
          accept={LOGO_ACCEPT}
          label={site.logoUrl ? t('logo.replace') : t('logo.file')}
          hint={t('logo.hint')}
          required
          error={fileError}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            if (fileError) setFileError(problemOf(chosen));
          }}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={upload.isLoading}>
            {t('logo.submit')}
          </button>
        </div>
      </StaffForm>
    </section>
  );
}
