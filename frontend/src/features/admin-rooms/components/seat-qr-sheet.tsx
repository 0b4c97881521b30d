import { Link, useParams } from 'react-router';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetAdminRoomQuery } from '../api/admin-rooms-api';
import { useGetSeatQrSheetQuery, type SeatQrCode } from '../api/seat-plan-api';
import { seatPlanPath } from './seat-plan-page';

/** An SVG as an image's address: the code shows as an `<img>`, never inlined into the page. */
const svgImage = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * Route `/room-edit/:id/seats/qr-sheet`: a printable sheet (A4, docs/product.md#seat-plans) of
 * the room's seats, each with its label and a QR code of its visitor page.
 */
export function SeatQrSheetPage() {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const { id = '' } = useParams();
  const room = useGetAdminRoomQuery(id);
  const sheet = useGetSeatQrSheetQuery(id);
  const data = room.data && sheet.data ? { room: room.data, seats: sheet.data.seats } : undefined;
  return (
    <Page title={t('seats.qr-title')}>
      <LoadingContainer
        data={data}
        error={room.error ?? sheet.error}
        backLink={{ to: '/rooms', label: t('back-to-list') }}
      >
        {(loaded) => (
          <QrSheet
            name={textIn(loaded.room.name, loaded.room.nameEn)}
            roomId={id}
            seats={loaded.seats}
          />
        )}
      </LoadingContainer>
    </Page>
  );
}

function QrSheet({ name, roomId, seats }: { name: string; roomId: string; seats: SeatQrCode[] }) {
  const { t } = useTranslation('admin-rooms');
  return (
    <>
      <div className="no-print">
        <p>
          <Link to={seatPlanPath(roomId)}>{t('seats.back', { name })}</Link>
        </p>
        <p>{t('seats.qr-hint')}</p>
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {t('seats.qr-print')}
        </button>
      </div>
      <p className="qr-sheet__room">{t('seats.room', { name })}</p>
      {seats.length ? (
        <ul className="qr-sheet">
          {seats.map((seat) => (
            <li key={seat.id} className="qr-sheet__seat">
              <img
                className="qr-sheet__code"
                src={svgImage(seat.svg)}
                alt={t('seats.qr-alt', { label: seat.label })}
              />
              <span className="qr-sheet__label">{seat.label}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('seats.qr-none')}</p>
      )}
    </>
  );
}
