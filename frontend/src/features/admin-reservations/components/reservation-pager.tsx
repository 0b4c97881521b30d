import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/i18n-context';
import { offsetOfPage, pageCount, pageOf, pagerItems } from '../utils/pager';
import { searchOf, type ListState } from '../utils/reservation-list';

/** Links to the list's pages (docs/product.md#api): previous, the pages near the current one, next. */
export function ReservationPager({ state, total }: { state: ListState; total: number }) {
  const { t } = useTranslation('admin-reservations');
  const current = pageOf(state.offset);
  const count = pageCount(total);
  const at = (page: number) => searchOf({ ...state, offset: offsetOfPage(page) });
  return (
    <nav className="pager no-print" aria-label={t('pager.label')}>
      <ul className="pager__list">
        <li>
          {current > 1 ? (
            <Link className="pager__link" to={at(current - 1)}>
              <span aria-hidden="true">‹ </span>
              {t('pager.previous')}
            </Link>
          ) : null}
        </li>
        {pagerItems(current, count).map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`} className="pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                className="pager__link"
                to={at(item)}
                aria-current={item === current ? 'page' : undefined}
                aria-label={t('pager.page', { page: item, count })}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {current < count ? (
            <Link className="pager__link" to={at(current + 1)}>
              {t('pager.next')}
              <span aria-hidden="true"> ›</span>
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}
