import { useState } from 'react';

/**
 * The text of an inline-edited field. It follows the stored value (a sync, another tab) while
 * the user has not changed it, and keeps what they typed otherwise, so a pull never overwrites
 * an edit in progress and a refused save never loses it.
 */
export function useDraft(value: string): [string, (draft: string) => void, () => void] {
  const [state, setState] = useState({ base: value, draft: value });
  if (state.base !== value) {
    setState({ base: value, draft: state.draft === state.base ? value : state.draft });
  }
  return [
    state.draft,
    (draft) => setState((current) => ({ ...current, draft })),
    () => setState({ base: value, draft: value }),
  ];
}
