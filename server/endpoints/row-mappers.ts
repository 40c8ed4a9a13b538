/** Postgres rows (snake_case) to contract shapes (camelCase): the mapping lives here only. */
import type { UserProfile } from '#contract/entities/user-profile.ts';
import type { Workspace, WorkspaceMember, WorkspaceRole } from '#contract/entities/workspace.ts';

export interface UserProfileRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  profile_picture_url: string | null;
}

export function toUserProfile(row: UserProfileRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profilePictureUrl: row.profile_picture_url,
  };
}

export interface WorkspaceRow {
  id: string;
  name: string;
  logo_url: string | null;
  brand_color: string | null;
  currency: string;
  time_zone: string;
  locale: string;
  portal_welcome_text: string | null;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const WORKSPACE_COLUMNS =
  'id, name, logo_url, brand_color, currency, time_zone, locale, portal_welcome_text, settings, created_at, updated_at';

export function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    logoUrl: row.logo_url,
    brandColor: row.brand_color,
    currency: row.currency,
    timeZone: row.time_zone,
    locale: row.locale,
    portalWelcomeText: row.portal_welcome_text,
    settings: row.settings,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface WorkspaceMemberRow extends UserProfileRow {
  role: WorkspaceRole;
  joined_at: Date;
}

export function toWorkspaceMember(row: WorkspaceMemberRow): WorkspaceMember {
  return { ...toUserProfile(row), role: row.role, joinedAt: row.joined_at.toISOString() };
}
