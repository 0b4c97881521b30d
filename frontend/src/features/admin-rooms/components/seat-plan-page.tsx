import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { useGetAdminRoomQuery } from '../api/admin-rooms-api';
import { useGetStaffSeatPlanQuery, type AdminSeatPlan, type PlanSeat } from '../api/seat-plan-api';
import { SeatOutOfServiceList } from './seat-out-of-service';
import { SeatPlanCsv } from './seat-plan-csv';
import { SeatPlanEditor } from './seat-plan-editor';

export const seatPlanPath = (roomId: string) => `/room-edit/${encodeURIComponent(roomId)}/seats`;

/**
 * Route `/room-edit/:id/seats`: the room's seat plan (docs/product.md#seat-plans): the editor,
 * the CSV import and export, the seats out of service, and the ways to the plan image and the
 * printed QR codes.
 */
export function SeatPlanPage() {
  const { t } = useTranslation('admin-rooms');
  const { id = '' } = useParams();
  const room = useGetAdminRoomQuery(id);
  const plan = useGetStaffSeatPlanQuery(id);
  const data = room.data && plan.data ? { room: room.data, plan: plan.data } : undefined;
  return (
    <Page title={t('seats.title')}>
      <LoadingContainer
        data={data}
        error={room.error ?? plan.error}
        backLink={{ to: '/rooms', label: t('back-to-list') }}
      >
        {(loaded) => <SeatPlanContent {...loaded} reload={plan.refetch} />}
      </LoadingContainer>
    </Page>
  );
}

function SeatPlanContent({
  room,
  plan,
  reload,
}: {
  room: Room;
  plan: AdminSeatPlan;
  reload: () => Promise<unknown>;
}) {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const { baseApiUrl } = useConfig();
  // A CSV import replaces the plan: the editor starts again from the seats as the import answered
  // them (the plan's read may come a moment later on a busy server).
  const [imported, setImported] = useState<{ seats: PlanSeat[]; generation: number } | null>(null);
  const name = textIn(room.name, room.nameEn);
  const imageUrl = plan.image ? resolveApiUrl(baseApiUrl, plan.image.url) : null;
  return (
    <>
      <p className="seat-plan-page__room">{t('seats.room', { name })}</p>
      <ul className="link-row">
        <li>
          <Link to={`/room-edit/${encodeURIComponent(room.id)}`}>{t('image.back', { name })}</Link>
        </li>
        <li>
          <Link to={`/room-edit/${encodeURIComponent(room.id)}/seat-plan-image`}>
            {t('seats.image-link')}
          </Link>
        </li>
        <li>
          <Link to={`${seatPlanPath(room.id)}/qr-sheet`}>{t('seats.qr-link')}</Link>
        </li>
      </ul>
      <SeatPlanEditor
        key={imported?.generation ?? 0}
        roomId={room.id}
        planSeats={imported?.seats ?? plan.seats}
        imageUrl={imageUrl}
      />
      <SeatPlanCsv
        roomId={room.id}
        onImported={(seats) => {
          setImported((last) => ({ seats, generation: (last?.generation ?? 0) + 1 }));
          void reload();
        }}
      />
      <SeatOutOfServiceList roomId={room.id} plan={plan} />
    </>
  );
}
