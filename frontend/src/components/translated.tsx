import { useLanguage } from '../i18n/i18n-context';

interface TranslatedProps {
  german: string | null | undefined;
  english: string | null | undefined;
}

/**
 * A text staff wrote, in the page's language; without a translation, the other language's text,
 * marked with its language for screen readers (docs/product.md#translations).
 */
export function Translated({ german, english }: TranslatedProps) {
  const { language } = useLanguage();
  const [own, other, otherLanguage] =
    language === 'en' ? [english, german, 'de'] : [german, english, 'en'];
  if (own) return <>{own}</>;
  return other ? <span lang={otherLanguage}>{other}</span> : null;
}
