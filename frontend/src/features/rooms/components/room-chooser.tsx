import { Link, useLocation, useSearchParams } from 'react-router';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { ExternalLink } from '../../../components/external-link';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { Translated } from '../../../components/translated';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { ROOM_LIST_QUERY, useGetRoomsQuery } from '../api/rooms-api';

/** An expired cart sends the visitor here with this history state. */
const isExpiry = (state: unknown) => (state as { expired?: unknown } | null)?.expired === true;

/**
 * Visitor start page: choose a reading room (route `/`). With `reset=y` a notice says the
 * reservation was reset, or that it expired when the cart's hold ran out. With `site` only the
 * rooms of that site (docs/product.md#sites).
 */
export function RoomChooser({ site }: { site?: string }) {
  const { t } = useTranslation('rooms');
  const { baseApiUrl, faqUrl } = useConfig();
  const [searchParams] = useSearchParams();
  const expired = isExpiry(useLocation().state);
  const { data, error } = useGetRoomsQuery(site ? { ...ROOM_LIST_QUERY, site } : ROOM_LIST_QUERY);
  const textIn = useTextIn();

  return (
    <Page title={t('chooser.title')}>
      {searchParams.get('reset') === 'y' ? (
        <p className={expired ? 'notice notice--warning' : 'notice notice--info'}>
          {expired ? t('transaction__expired', { ns: 'common-error' }) : t('chooser.reset-notice')}
        </p>
      ) : null}
      <p>{t('chooser.intro')}</p>
      <ul className="link-row">
        <li>
          <Link to="/your-reservations">{t('chooser.cart-link')}</Link>
        </li>
        {faqUrl ? (
          <li>
            <ExternalLink href={faqUrl} newWindow>
              {t('chooser.faq-link')}
            </ExternalLink>
          </li>
        ) : null}
      </ul>
      <LoadingContainer data={data} error={error}>
        {({ content: rooms }) =>
          rooms.length === 0 ? (
            <EmptyState>{t('chooser.empty')}</EmptyState>
          ) : (
            <ul className="card-list">
              {rooms.map((room) => (
                <li key={room.id} className="card">
                  {room.imageUrl ? (
                    <img
                      className="card__image"
                      src={resolveApiUrl(baseApiUrl, room.imageUrl)}
                      alt={textIn(room.imageAlt, room.imageAltEn)}
                      loading="lazy"
                    />
                  ) : null}
                  <div className="card__body">
                    <h2 className="card__title">
                      <Translated german={room.name} english={room.nameEn} />
                    </h2>
                    <p>
                      <Translated german={room.description} english={room.descriptionEn} />
                    </p>
                    <Link
                      className="button button--primary"
                      to={`/room/${encodeURIComponent(room.id)}`}
                    >
                      {t('chooser.choose')}
                      <span className="visually-hidden">
                        {' '}
                        <Translated german={room.name} english={room.nameEn} />
                      </span>
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </LoadingContainer>
    </Page>
  );
}
