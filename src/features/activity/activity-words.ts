/**
 * An activity entry in words: "Ada renamed task “Logo” to “Logo v2”", "Ada changed priority from
 * None to High". Field names and choice values come from the entity's declaration (fieldWord,
 * `values`), so a new field reads sensibly without a change here.
 */
import type { ActivityEntry, ActivityKind } from '#contract/endpoints/project-activity.ts';
import { entityNamed } from '#contract/synced-entities.ts';
import { fieldWord } from '#contract/synced-entity.ts';

export const activityKindWords: Readonly<Record<ActivityKind, string>> = {
  project: 'project',
  milestone: 'milestone',
  'kanban-column': 'column',
  task: 'task',
  note: 'note',
  file: 'file',
  'change-request': 'change request',
  'calendar-event': 'event',
};

/** Filter words (plural, capitalised) for the kind select. */
export const activityKindFilterWords: Readonly<Record<ActivityKind, string>> = {
  project: 'Project details',
  milestone: 'Milestones',
  'kanban-column': 'Board columns',
  task: 'Tasks',
  note: 'Notes',
  file: 'Files',
  'change-request': 'Change requests',
  'calendar-event': 'Calendar events',
};

/** Fields whose values mean nothing to a reader (ids, order keys, long texts, lists). */
function isOpaque(key: string, value: unknown): boolean {
  if (key === 'position' || key.endsWith('Id')) return true;
  if (value !== null && typeof value === 'object') return true;
  return typeof value === 'string' && (value.length > 60 || value.includes('\n'));
}

function valueWord(
  values: Readonly<Record<string, string>> | undefined,
  key: string,
  value: unknown,
): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && values?.[value]) return values[value];
  if (key === 'amount' && typeof value === 'number') return (value / 100).toFixed(2);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T00:00`).toLocaleDateString(undefined, { dateStyle: 'medium' });
  }
  // A moment (an event's start or end): in the reader's own time.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) {
      return at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
  }
  return typeof value === 'string' || typeof value === 'number' ? `“${value}”` : 'a new value';
}

const quoted = (text: string) => `“${text}”`;

/** What happened, without the actor. */
export function describeChange(entry: ActivityEntry): string {
  const kind = activityKindWords[entry.kind];
  const subject = `${kind} ${quoted(entry.label)}`;
  if (entry.op === 'create' && entry.kind === 'change-request' && isClientActor(entry)) {
    return `sent ${subject} from the client portal`;
  }
  if (entry.op === 'create') return `created ${subject}`;
  if (entry.op === 'delete') return `deleted ${subject}`;
  if (entry.op === 'share') return `made a share link to ${subject}${shareTerms(entry)}`;
  if (entry.op === 'unshare') return `turned off a share link to ${subject}`;
  if (entry.op === 'sign-off') return signOffWords(entry, subject);
  if (entry.op === 'portal') return portalWords(entry);
  if (entry.op === 'download') {
    // Nobody signed in downloads through a link: the line hangs on the link's maker.
    const to = entry.changes.downloads?.to;
    const cap = entry.changes.maxDownloads?.to;
    const count =
      typeof to === 'number'
        ? ` (download ${to}${typeof cap === 'number' ? ` of ${cap}` : ''})`
        : '';
    return `’s share link: ${subject} downloaded${count}`;
  }
  let entity;
  try {
    entity = entityNamed(entry.kind);
  } catch {
    entity = null;
  }
  let rename: string | null = null;
  let shown: boolean | null = null;
  const changes: string[] = [];
  for (const [key, { from, to }] of Object.entries(entry.changes)) {
    if (entity && key === entity.label && typeof from === 'string' && typeof to === 'string') {
      rename = `renamed ${kind} ${quoted(from)} to ${quoted(to)}`;
      continue;
    }
    // "changed shown in the portal from yes to no" reads badly: say what the client now sees.
    if (key === 'visibleToClient' && typeof to === 'boolean' && from !== to) {
      shown = to;
      continue;
    }
    const word = entity ? fieldWord(entity, key) : key;
    const values = entity?.fields[key]?.values;
    if (key === 'position') changes.push('the order');
    else if (isOpaque(key, from) || isOpaque(key, to)) changes.push(word);
    else
      changes.push(`${word} from ${valueWord(values, key, from)} to ${valueWord(values, key, to)}`);
  }
  const other = otherChangeWords(rename, changes, subject);
  if (shown === null) return other ?? `updated ${subject}`;
  const visibility = shown ? 'showed it in the client portal' : 'hid it from the client portal';
  if (other === null) return visibility.replace(' it ', ` ${subject} `);
  return `${other}, and ${visibility}`;
}

/** The rename and field changes of an update in words; null when there are none. */
function otherChangeWords(rename: string | null, changes: string[], subject: string) {
  if (rename)
    return changes.length === 0 ? rename : `${rename} and changed ${joinClauses(changes)}`;
  if (changes.length === 0) return null;
  if (changes.length === 1) {
    // "changed priority of task “Logo” from No priority to High"
    const [only = ''] = changes;
    const at = only.indexOf(' from ');
    return at < 0
      ? `changed ${only} of ${subject}`
      : `changed ${only.slice(0, at)} of ${subject}${only.slice(at)}`;
  }
  return `changed ${subject}: ${joinClauses(changes)}`;
}

/** The client's decision on a milestone, with their comment when they asked for changes. */
function signOffWords(entry: ActivityEntry, subject: string): string {
  const decision = entry.changes.decision?.to;
  const comment = entry.changes.comment?.to;
  if (decision === 'approved') return `approved ${subject} in the client portal`;
  const said = typeof comment === 'string' && comment !== '' ? `: ${quoted(comment)}` : '';
  return `asked for changes to ${subject} in the client portal${said}`;
}

/** The project's portal turned on or off, or its password set or changed. */
function portalWords(entry: ActivityEntry): string {
  const enabled = entry.changes.enabled;
  const password = entry.changes.password;
  const parts: string[] = [];
  if (enabled && enabled.from !== enabled.to) {
    parts.push(
      enabled.to === true ? 'turned the client portal on' : 'turned the client portal off',
    );
  }
  if (password) {
    parts.push(password.from === true ? 'changed the portal password' : 'set the portal password');
  }
  return parts.length === 0 ? 'changed the client portal' : joinClauses(parts);
}

/** ", expires 1 Dec 2026, up to 3 downloads, with a password" from a share entry's changes. */
function shareTerms(entry: ActivityEntry): string {
  const terms: string[] = [];
  const expires = entry.changes.expiresAt?.to;
  if (typeof expires === 'string') {
    terms.push(
      `expires ${new Date(expires).toLocaleDateString(undefined, { dateStyle: 'medium' })}`,
    );
  }
  const cap = entry.changes.maxDownloads?.to;
  if (typeof cap === 'number') terms.push(`up to ${cap} download${cap === 1 ? '' : 's'}`);
  if (entry.changes.password?.to === true) terms.push('with a password');
  return terms.length === 0 ? '' : ` (${terms.join(', ')})`;
}

/** The text between the actor's name and the change: none before a possessive. */
export function actorJoiner(entry: ActivityEntry): string {
  return entry.op === 'download' ? '' : ' ';
}

function joinClauses(clauses: string[]): string {
  if (clauses.length === 1) return clauses[0] ?? '';
  return `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1) ?? ''}`;
}

/** Whether the client did it, in the portal (the name is then the client's, not a member's). */
export function isClientActor(entry: ActivityEntry): boolean {
  return entry.actorKind === 'client';
}

/**
 * The actor's name; "Deleted user" when their profile is gone (the account was deleted), "The
 * client" for a client with no name.
 */
export function actorWord(entry: ActivityEntry): string {
  if (entry.actorName.trim() !== '') return entry.actorName;
  return isClientActor(entry) ? 'The client' : 'Deleted user';
}
