/**
 * After a navigation, focus moves to the new page's heading (main h1), so a screen reader reads
 * the page that opened and Tab goes on from its top, whichever link or action led there. Only on
 * a path change (a tab or a filter is a search change, and focus stays in the page), and only
 * while focus is where the navigation left it (the link followed, or nothing once a dialog's
 * button is gone): a page that puts focus in a field of its own keeps it. Not on the first load:
 * a new document starts at its top by itself.
 */
import { focusPageHeading } from '../ui/focus-page-heading.ts';

interface NavigationEvent {
  pathChanged: boolean;
  fromLocation?: unknown;
}

export interface NavigationEvents {
  subscribe(
    event: 'onBeforeNavigate' | 'onResolved',
    listener: (event: NavigationEvent) => void,
  ): () => void;
}

export function focusHeadingOnPathChange(
  router: NavigationEvents,
  focus: (returnedTo: Element | null) => () => void = focusPageHeading,
  activeElement: () => Element | null = () => document.activeElement,
): () => void {
  let leftAt: Element | null = null;
  let stopFollowing = () => {};
  const offBefore = router.subscribe('onBeforeNavigate', (event) => {
    if (event.pathChanged) leftAt = activeElement();
  });
  const offResolved = router.subscribe('onResolved', (event) => {
    if (!event.pathChanged || event.fromLocation === undefined) return;
    stopFollowing();
    stopFollowing = focus(leftAt);
  });
  return () => {
    offBefore();
    offResolved();
    stopFollowing();
  };
}
