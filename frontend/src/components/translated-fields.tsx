import type { InputBounds } from '@rr/contracts/bounds';
import type { TextFieldProps } from '../hooks/use-form-values';
import { useTranslation } from '../i18n/i18n-context';
import { InputField } from './form-field';
import { TextAreaField } from './text-area-field';

interface TranslatedFieldsProps<N extends string> {
  /**
   * The catalogue namespace of the labels and hints: `form.<name>` and `form.<name>-hint` of the
   * German text, `form.<name>-en` and `form.<name>-en-hint` of the English one.
   */
  namespace: string;
  /** The German text's field; the English one is `<name>En`. */
  name: N;
  /** The props of a field's control (`useFormValues`). */
  field: (name: N | `${N}En`) => TextFieldProps & { required?: boolean };
  /** The contract's limits of both texts. */
  bounds: Readonly<Record<N | `${N}En`, InputBounds>>;
  /** Whether the German text is required. */
  required?: boolean;
  /** Text areas of this many rows instead of one-line inputs. */
  rows?: number;
}

/**
 * A text in German and its English twin (docs/product.md#translations): the English one is
 * optional and marked as English; English pages show the German text when it is empty.
 */
export function TranslatedFields<N extends string>({
  namespace,
  name,
  field,
  bounds,
  required,
  rows,
}: TranslatedFieldsProps<N>) {
  const { t } = useTranslation(namespace);
  const englishName: `${N}En` = `${name}En`;
  const german = {
    ...field(name),
    label: t(`form.${name}`),
    hint: t(`form.${name}-hint`),
    required,
    ...bounds[name],
  };
  const english = {
    ...field(englishName),
    label: t(`form.${name}-en`),
    hint: t(`form.${name}-en-hint`),
    lang: 'en',
    ...bounds[englishName],
  };
  return rows === undefined ? (
    <>
      <InputField {...german} />
      <InputField {...english} />
    </>
  ) : (
    <>
      <TextAreaField {...german} rows={rows} />
      <TextAreaField {...english} rows={rows} />
    </>
  );
}
