import { useLayoutEffect } from 'react';
import { PRERENDERED_ID, handOverToLivePage, hasStateToHandOver } from './prerendered-handover.ts';

/**
 * Called by every prerendered screen. The static copy of the page stays on screen while the app
 * boots in the hidden #root; once the screen has rendered, in the same commit (before paint), the
 * copy is hidden and #root shows the live page in its place. What the visitor typed, focused or
 * clicked on the copy meanwhile is carried over on the next task, where the live page's handlers
 * may update state as after any event.
 *
 * Hiding is cheap; removing some thousand visible nodes at that moment is not (style, layout and
 * accessibility-tree work in the same long task as the app's first render). So the hidden copy is
 * removed when the browser is idle, and its `main` loses its id at once so that the skip link
 * (getElementById('main')) reaches the live page meanwhile.
 */
export function useTakeOverPrerenderedPage(): void {
  useLayoutEffect(() => {
    const copy = document.getElementById(PRERENDERED_ID);
    const live = copy?.nextElementSibling;
    if (!copy || copy.hidden) return;
    const remove = () => copy.remove();
    const hide = () => {
      copy.hidden = true;
      copy.querySelector('#main')?.removeAttribute('id');
      if (typeof window.requestIdleCallback === 'function') {
        window.requestIdleCallback(remove, { timeout: 2000 });
      } else {
        setTimeout(remove, 200);
      }
    };
    if (!(live instanceof HTMLElement) || !hasStateToHandOver(copy)) {
      hide();
      return;
    }
    // The copy stays on screen until the live page has taken its state, all in one task.
    setTimeout(() => {
      if (copy.hidden) return;
      hide();
      handOverToLivePage(copy, live);
    }, 0);
  }, []);
}
