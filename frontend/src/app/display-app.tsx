import { OccupancyDisplay } from '../features/display/components/occupancy-display';
import { useConfig } from './config-context';
import '../styles/display.css';

/**
 * The occupancy display interface (`data-interface="display"`): the room of
 * `data-room-id`, or every room without it. Its own chunk and texts (`display.*.json`): the
 * visitor app never downloads them.
 */
export function DisplayApp() {
  const { roomId } = useConfig();
  return <OccupancyDisplay roomId={roomId} />;
}
