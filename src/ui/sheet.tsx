/**
 * A modal dialog that is a bottom sheet on phones and a centred card from `sm` up: focus trapped,
 * Escape and a press outside close it, and react-aria hands focus back to what opened it.
 */
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

export function Sheet({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="fixed inset-0 z-50 flex items-end justify-center bg-black/50 sm:items-center sm:p-4"
    >
      <Modal
        className={`max-h-dvh w-full overflow-y-auto rounded-t-2xl border border-border bg-surface text-fg shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:rounded-2xl ${wide ? 'sm:max-w-2xl' : 'sm:max-w-md'}`}
      >
        <Dialog className="flex flex-col gap-4 p-5 outline-none sm:p-6">
          <Heading slot="title" className="text-xl font-semibold break-words text-fg">
            {title}
          </Heading>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** A dialog's buttons: stacked with the main one on top on phones, in a row from `sm` up. */
export function SheetActions({ children }: { children: ReactNode }) {
  return (
    <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>
  );
}
