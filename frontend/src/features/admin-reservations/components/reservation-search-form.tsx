import { useState, type FormEvent } from 'react';
import { InputField } from '../../../components/form-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  checkSearchForm,
  newSearch,
  SEARCH_FIELDS,
  showReset,
  type ListState,
  type SearchField,
} from '../utils/reservation-list';

const filterId = (field: SearchField) => `reservations-${field}`;

interface ReservationSearchFormProps {
  state: ListState;
  today: string;
  onSearch: (next: ListState) => void;
}

/** The list's search: date range and term, checked before the search starts; reset to today. */
export function ReservationSearchForm({ state, today, onSearch }: ReservationSearchFormProps) {
  const { t } = useTranslation('admin-reservations');
  const current = { from: state.from, until: state.until, term: state.term };
  const [values, setValues] = useState<Record<SearchField, string>>(current);
  const [shown, setShown] = useState(current);
  const form = useValidatedForm(checkSearchForm, SEARCH_FIELDS, filterId);

  // The filters changed from outside (back/forward, tab links): show them in the form.
  if (shown.from !== state.from || shown.until !== state.until || shown.term !== state.term) {
    setShown(current);
    setValues(current);
  }

  const change = (field: SearchField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.validate(values)) return;
    onSearch(
      newSearch(state, {
        from: values.from.trim(),
        until: values.until.trim(),
        term: values.term.trim(),
      }),
    );
  };

  const reset = () => {
    onSearch(newSearch(state, { from: today, until: '', term: '' }));
    // The reset button disappears: keep focus in the search.
    document.getElementById(filterId('from'))?.focus();
  };

  return (
    <form
      className="search-form no-print"
      role="search"
      aria-label={t('list.search-label')}
      noValidate
      onSubmit={submit}
    >
      <div className="search-form__field search-form__field--date">
        <InputField
          id={filterId('from')}
          type="date"
          label={t('list.from')}
          value={values.from}
          error={form.messageOf('from')}
          onChange={(event) => change('from', event.target.value)}
        />
      </div>
      <div className="search-form__field search-form__field--date">
        <InputField
          id={filterId('until')}
          type="date"
          label={t('list.until')}
          value={values.until}
          error={form.messageOf('until')}
          onChange={(event) => change('until', event.target.value)}
        />
      </div>
      <div className="search-form__field">
        <InputField
          id={filterId('term')}
          type="search"
          label={t('list.term')}
          hint={t('list.term-hint')}
          value={values.term}
          error={form.messageOf('term')}
          onChange={(event) => change('term', event.target.value)}
        />
      </div>
      <div className="search-form__actions">
        <button type="submit" className="button button--primary">
          {t('list.search-submit')}
        </button>
        {showReset(state, today) ? (
          <button type="button" className="button button--secondary" onClick={reset}>
            {t('list.reset')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
