import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { toUserProfile, type UserProfileRow } from './row-mappers.ts';

const PROFILE_COLUMNS = 'id, email, first_name, last_name, profile_picture_url';

export function createUserHandlers(): ResourceHandlers<'user'> {
  return {
    'user/get-user-profile': async ({ query, identity, tx }) => {
      // Your own profile, or one of a member of a workspace you share; otherwise not found, so
      // user ids cannot be probed.
      const { rows } = await tx.query<UserProfileRow>(
        `SELECT ${PROFILE_COLUMNS} FROM user_profile p
         WHERE p.id = $1 AND (p.id = $2 OR EXISTS (
           SELECT 1 FROM workspace_member theirs
           JOIN workspace_member mine ON mine.workspace_id = theirs.workspace_id AND mine.user_id = $2
           WHERE theirs.user_id = p.id))`,
        [query.id, identity.userId],
      );
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'No such user.');
      return { user: toUserProfile(row) };
    },

    'user/update-user-profile': async ({ query, body, identity, tx }) => {
      if (query.id !== identity.userId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'You can only change your own profile.');
      }
      const { rows } = await tx.query<UserProfileRow>(
        `UPDATE user_profile SET
           first_name = COALESCE($2, first_name),
           last_name = COALESCE($3, last_name),
           profile_picture_url = CASE WHEN $4 THEN $5 ELSE profile_picture_url END,
           updated_at = now()
         WHERE id = $1
         RETURNING ${PROFILE_COLUMNS}`,
        [
          query.id,
          body.firstName ?? null,
          body.lastName ?? null,
          body.profilePictureUrl !== undefined,
          body.profilePictureUrl ?? null,
        ],
      );
      const row = rows[0];
      if (!row) {
        throw new AppError(
          ErrorCode.NOT_FOUND,
          'Your profile does not exist yet: finish registration first.',
        );
      }
      return { user: toUserProfile(row) };
    },
  };
}
