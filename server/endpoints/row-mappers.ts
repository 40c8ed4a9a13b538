/** Postgres rows (snake_case) to contract shapes (camelCase): the mapping lives here only. */
import type { Client } from '#contract/entities/client.ts';
import type { Project } from '#contract/entities/project.ts';
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

export interface ClientRow {
  id: string;
  workspace_id: string;
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  website: string | null;
  notes_summary: string | null;
  tags: string[];
  status: Client['status'];
  currency: string;
  locale: string | null;
  time_zone: string | null;
  archived: boolean;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
  version: string;
}

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    address: row.address,
    website: row.website,
    notesSummary: row.notes_summary,
    tags: row.tags,
    status: row.status,
    currency: row.currency,
    locale: row.locale,
    timeZone: row.time_zone,
    archived: row.archived,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
    version: Number(row.version),
  };
}

export interface ProjectRow {
  id: string;
  workspace_id: string;
  client_id: string;
  name: string;
  description: string | null;
  status: Project['status'];
  start_date: string | null;
  due_date: string | null;
  budget: string | null;
  currency: string;
  billing_type: Project['billingType'];
  color: string | null;
  archived: boolean;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
  version: string;
}

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    clientId: row.client_id,
    name: row.name,
    description: row.description,
    status: row.status,
    startDate: row.start_date,
    dueDate: row.due_date,
    budget: row.budget,
    currency: row.currency,
    billingType: row.billing_type,
    color: row.color,
    archived: row.archived,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
    version: Number(row.version),
  };
}
