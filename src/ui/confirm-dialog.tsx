import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button.tsx';

export interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Danger actions get a red button. */
  isDestructive?: boolean;
  isPending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Are you sure?" as an alert dialog: focus is trapped, Escape cancels, the page behind is inert. */
export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  isDestructive = false,
  isPending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open && !isPending) onCancel();
      }}
      isDismissable={!isPending}
      className="fixed inset-0 z-50 grid place-items-center bg-black/50 p-4"
    >
      <Modal className="w-full max-w-md rounded-2xl border border-border bg-surface p-6 text-fg shadow-xl">
        <Dialog role="alertdialog" className="outline-none">
          <Heading slot="title" className="text-lg font-semibold">
            {title}
          </Heading>
          <div className="mt-2 text-fg-muted">{children}</div>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={onCancel} isDisabled={isPending} autoFocus>
              Cancel
            </Button>
            <Button
              variant={isDestructive ? 'danger' : 'primary'}
              onPress={onConfirm}
              isPending={isPending}
            >
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
