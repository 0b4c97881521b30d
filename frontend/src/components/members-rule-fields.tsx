import { CheckboxField } from './form-field';
import { TextAreaField } from './text-area-field';

/**
 * The staff forms' fields of the rule for members of the university (lib/members-rule.ts): the
 * room's services and the site's form, each with its own texts (what the rule means there).
 */
export function MembersRuleFields({
  idOf,
  signInRequired,
  affiliations,
  error,
  texts,
  onSignInChange,
  onAffiliationsChange,
}: {
  idOf: (field: 'signInRequired' | 'allowedAffiliations') => string;
  signInRequired: boolean;
  affiliations: string;
  /** The affiliations field's error. */
  error: string | undefined;
  texts: { legend: string; signIn: string; signInHint: string; list: string; listHint: string };
  onSignInChange: (on: boolean) => void;
  onAffiliationsChange: (text: string) => void;
}) {
  return (
    <fieldset className="fieldset">
      <legend>{texts.legend}</legend>
      <CheckboxField
        id={idOf('signInRequired')}
        label={texts.signIn}
        hint={texts.signInHint}
        checked={signInRequired}
        onChange={(event) => onSignInChange(event.target.checked)}
      />
      <TextAreaField
        id={idOf('allowedAffiliations')}
        label={texts.list}
        hint={texts.listHint}
        rows={3}
        autoCapitalize="none"
        spellCheck={false}
        value={affiliations}
        error={error}
        onChange={(event) => onAffiliationsChange(event.target.value)}
      />
    </fieldset>
  );
}
