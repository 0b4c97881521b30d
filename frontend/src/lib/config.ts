/**
 * Configuration of the single-page app, read from the data attributes of the mount element
 * (docs/product.md#configuration). `parseConfig` is pure so it can be unit-tested; `main.tsx` feeds it the
 * element's `dataset` and the document language.
 */

export const INTERFACE_MODES = ['admin', 'reports', 'permissionerror', 'user', 'display'] as const;
export type InterfaceMode = (typeof INTERFACE_MODES)[number];

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export type LabelOverride = Readonly<Record<string, unknown>>;

export interface AppConfig {
  /** Base path of the app, always ending with '/'. Used as the router basename. */
  readonly baseUrl: string;
  /** Base of the API, always ending with '/'. */
  readonly baseApiUrl: string;
  /** Base of static resources, always ending with '/'. */
  readonly baseResourcesUrl: string;
  readonly interface: InterfaceMode;
  /** Text overrides merged over the message catalogue (see `applyLabelOverride`). */
  readonly labelOverride: LabelOverride;
  /** External address for editing texts; empty when not configured. */
  readonly labelAdminUrl: string;
  /** Address of the FAQ page; empty when not configured. */
  readonly faqUrl: string;
  /**
   * Address of the privacy information the privacy notice links to; empty: the FAQ
   * page, and without that the notice shows its own text (`privacy.details`, overridable).
   */
  readonly privacyUrl: string;
  readonly recaptchaPublicToken: string;
  readonly recaptchaSrc: string;
  readonly language: Language;
  /**
   * The page's own language (its `lang`), whatever language the visitor chose: the language the
   * plain texts of `labelOverride` are written in.
   */
  readonly pageLanguage?: Language;
  /**
   * The one room the occupancy display (`data-interface="display"`) shows; empty: every
   * room.
   */
  readonly roomId: string;
}

/**
 * The data attributes read from the mount element, as keys of `HTMLElement.dataset`
 * (`data-base-url` is `dataset.baseUrl`, and so on).
 */
export const CONFIG_ATTRIBUTES = {
  baseUrl: 'data-base-url',
  baseApiUrl: 'data-base-api-url',
  baseResourcesUrl: 'data-base-resources-url',
  interface: 'data-interface',
  labelOverride: 'data-label-override',
  labelAdminUrl: 'data-label-admin-url',
  faqUrl: 'data-faq-url',
  privacyUrl: 'data-privacy-url',
  recaptchaPublicToken: 'data-recaptcha-public-token',
  recaptchaSrc: 'data-recaptcha-src',
  roomId: 'data-room-id',
} as const;

export type ConfigDataset = Readonly<Record<string, string | undefined>>;

function text(value: string | undefined): string {
  return (value ?? '').trim();
}

/** Appends a trailing slash; an empty value becomes '/'. */
export function withTrailingSlash(value: string): string {
  if (value === '') return '/';
  return value.endsWith('/') ? value : `${value}/`;
}

export function parseInterfaceMode(value: string | undefined): InterfaceMode {
  const mode = text(value);
  return (INTERFACE_MODES as readonly string[]).includes(mode) ? (mode as InterfaceMode) : 'user';
}

/** First two letters of the page language; only de and en are supported, default de. */
export function parseLanguage(documentLang: string | null | undefined): Language {
  const code = (documentLang ?? '').trim().slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'de';
}

/** A JSON object; anything else (bad JSON, arrays, primitives) is ignored. */
export function parseLabelOverride(value: string | undefined): LabelOverride {
  const raw = text(value);
  if (raw === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as LabelOverride;
    }
  } catch {
    // ignored on purpose: a bad override must not stop the app
  }
  return {};
}

export function parseConfig(
  dataset: ConfigDataset,
  documentLang: string | null | undefined,
): AppConfig {
  return {
    baseUrl: withTrailingSlash(text(dataset.baseUrl)),
    baseApiUrl: withTrailingSlash(text(dataset.baseApiUrl)),
    baseResourcesUrl: withTrailingSlash(text(dataset.baseResourcesUrl)),
    interface: parseInterfaceMode(dataset.interface),
    labelOverride: parseLabelOverride(dataset.labelOverride),
    labelAdminUrl: text(dataset.labelAdminUrl),
    faqUrl: text(dataset.faqUrl),
    privacyUrl: text(dataset.privacyUrl),
    recaptchaPublicToken: text(dataset.recaptchaPublicToken),
    recaptchaSrc: text(dataset.recaptchaSrc),
    language: parseLanguage(documentLang),
    pageLanguage: parseLanguage(documentLang),
    roomId: text(dataset.roomId),
  };
}
