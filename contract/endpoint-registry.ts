/**
 * Every operation of the API, in one list. The server dispatcher, the OpenAPI document and the
 * tests derive from it; adding an operation here without a server handler fails to compile.
 */
import { deleteAccount, getAccountDeletionPlan } from './endpoints/account.ts';
import { getPublicConfig } from './endpoints/config.ts';
import { submitContact } from './endpoints/contact.ts';
import { submitFeedback } from './endpoints/feedback.ts';
import {
  deleteAllNotifications,
  deleteNotification,
  getNotifications,
  getUnreadCount,
  markAllNotificationsRead,
  markNotificationRead,
  sendTestNotification,
} from './endpoints/notifications.ts';
import { registerUser } from './endpoints/register.ts';
import { joinNotificationGroup, notificationConnect } from './endpoints/signalr.ts';
import { pullChanges, pushMutations } from './endpoints/sync.ts';
import { getVersion } from './endpoints/system.ts';
import { getDownloadUrl, getFileStorage } from './endpoints/file.ts';
import {
  createFileShareLink,
  getFileShareLinks,
  getSharedFile,
  openSharedFile,
  revokeFileShareLink,
} from './endpoints/file-share-link.ts';
import {
  authenticatePortal,
  decideChangeRequest,
  generateSasUrl,
  getClientProject,
  getPortalAccess,
  getPortalChangeRequests,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
  signOffMilestone,
  signOutPortal,
  submitChangeRequest,
  updatePortalAccess,
} from './endpoints/client-portal.ts';
import { createCalendarFeed, getCalendarFeed, revokeCalendarFeed } from './endpoints/calendar.ts';
import {
  getInvoicePdf,
  getPortalInvoicePdf,
  getPortalInvoices,
  payPortalInvoice,
  sendInvoice,
} from './endpoints/invoice.ts';
import { getProjectActivity } from './endpoints/project-activity.ts';
import { subscriptionEndpoints } from './endpoints/subscription.ts';
import { portalChatEndpoints } from './endpoints/portal-chat.ts';
import { syncedEntities, type SyncedEntities } from './synced-entities.ts';
import { getUserProfile, updateUserProfile } from './endpoints/user.ts';
import {
  getOwnedWorkspaceId,
  getWorkspaceMembers,
  getWorkspaceSettings,
  updateWorkspaceSettings,
} from './endpoints/workspace.ts';
import {
  acceptWorkspaceInvite,
  changeMemberRole,
  createWorkspaceInvite,
  getWorkspaceInvites,
  leaveWorkspace,
  previewWorkspaceInvite,
  removeMember,
  revokeWorkspaceInvite,
  transferOwnership,
} from './endpoints/workspace-invite.ts';

type EntityEndpoint = SyncedEntities[number]['endpointList'][number];
const entityEndpoints: readonly EntityEndpoint[] = syncedEntities.flatMap(
  (entity): readonly EntityEndpoint[] => entity.endpointList,
);

export const endpointRegistry = [
  getPublicConfig,
  submitContact,
  submitFeedback,
  getVersion,
  getUserProfile,
  updateUserProfile,
  getAccountDeletionPlan,
  deleteAccount,
  registerUser,
  getOwnedWorkspaceId,
  getWorkspaceMembers,
  getWorkspaceSettings,
  updateWorkspaceSettings,
  createWorkspaceInvite,
  getWorkspaceInvites,
  revokeWorkspaceInvite,
  previewWorkspaceInvite,
  acceptWorkspaceInvite,
  changeMemberRole,
  removeMember,
  leaveWorkspace,
  transferOwnership,
  // Every synced entity's five CRUD operations, derived from its declaration.
  ...entityEndpoints,
  getProjectActivity,
  getDownloadUrl,
  getFileStorage,
  createFileShareLink,
  getFileShareLinks,
  revokeFileShareLink,
  getSharedFile,
  openSharedFile,
  getPortalAccess,
  updatePortalAccess,
  authenticatePortal,
  signOutPortal,
  getClientProject,
  getPortalMilestones,
  getPortalFiles,
  generateSasUrl,
  getPortalWorkspaceSettings,
  signOffMilestone,
  getPortalChangeRequests,
  submitChangeRequest,
  decideChangeRequest,
  pushMutations,
  pullChanges,
  getNotifications,
  getUnreadCount,
  markNotificationRead,
  markAllNotificationsRead,
  deleteNotification,
  deleteAllNotifications,
  sendTestNotification,
  notificationConnect,
  joinNotificationGroup,
  getCalendarFeed,
  createCalendarFeed,
  revokeCalendarFeed,
  ...subscriptionEndpoints,
  ...portalChatEndpoints,
  sendInvoice,
  getPortalInvoices,
  payPortalInvoice,
  getInvoicePdf,
  getPortalInvoicePdf,
] as const;

export type RegisteredEndpoint = (typeof endpointRegistry)[number];

/** `resource/operation`, the key a handler is registered under. */
export type EndpointKey = `${RegisteredEndpoint['resource']}/${RegisteredEndpoint['operation']}`;

export function endpointKey(def: { resource: string; operation: string }): string {
  return `${def.resource}/${def.operation}`;
}
