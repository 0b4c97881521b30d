import { OccupancyDisplay } from '../features/display/components/occupancy-display';
import { useConfig } from './config-context';
import '../styles/display.css';

/**
 * The occupancy display interface (`data-interface="display"`): the room of
 * `data-room-id`, or every room without it; only a site's rooms at `/display?site={slug}` or
 * `/s/{slug}/display` (docs/product.md#sites). Its own chunk and texts (`display.*.json`): the
 * visitor app never downloads them.
 */
export function DisplayApp() {
  const { roomId } = useConfig();
  const site =
    new URLSearchParams(location.search).get('site') ??
    /\/s\/([^/]+)\/display(?:\/|$)/.exec(location.pathname)?.[1] ??
    '';
  return <OccupancyDisplay roomId={roomId} site={site} />;
}
