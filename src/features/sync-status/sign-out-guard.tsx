/**
 * Signing out with changes still waiting: say so and offer to sync first. The changes are never
 * lost either way (they stay in this user's database on this device and go the next time they
 * sign in here), but the user should know they are not on the server yet.
 */
import { useState, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { describeSyncStatus } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { useOptionalSync } from '../workspace/sync-context.tsx';

export function useSignOutGuard(signOut: () => void): {
  requestSignOut: () => void;
  dialog: ReactNode;
} {
  const sync = useOptionalSync();
  const [open, setOpen] = useState(false);
  const requestSignOut = () => {
    const status = sync?.handle.getStatus();
    // The demo's changes are never sent: leaving it needs no warning about unsynced changes.
    if (status && status.waiting > 0 && status.state !== 'local') setOpen(true);
    else signOut();
  };
  const status = sync?.handle.getStatus();
  const waiting = status?.waiting ?? 0;
  const offline = status?.state === 'offline';
  const dialog = (
    <ModalOverlay
      isOpen={open}
      onOpenChange={setOpen}
      isDismissable
      className="fixed inset-0 z-50 grid place-items-center bg-black/50 p-4"
    >
      <Modal className="w-full max-w-md rounded-2xl border border-border bg-surface p-6 text-fg shadow-xl">
        <Dialog role="alertdialog" className="outline-none">
          <Heading slot="title" className="text-lg font-semibold">
            {waiting === 1 ? '1 change is' : `${waiting} changes are`} not synced yet
          </Heading>
          <p className="mt-2 text-fg-muted">
            {offline ? "You're offline. " : status ? `${describeSyncStatus(status).text}. ` : ''}
            If you sign out now, they stay on this device and are sent the next time you sign in
            here. Sync first to send them now.
          </p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={() => setOpen(false)} autoFocus>
              Cancel
            </Button>
            <Button
              variant="secondary"
              onPress={() => {
                setOpen(false);
                signOut();
              }}
            >
              Sign out anyway
            </Button>
            <Button
              isDisabled={offline}
              onPress={() => {
                sync?.handle.reconnect();
                setOpen(false);
              }}
            >
              Sync now
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
  return { requestSignOut, dialog };
}
