import { use } from 'react';
import { ToastContext } from './toast-provider.tsx';
import type { Toaster } from './toaster.ts';

/** `const toast = useToast(); toast.show({ message: 'Saved' })`. */
export function useToast(): Toaster {
  const toaster = use(ToastContext);
  if (!toaster) throw new Error('useToast must be used inside <ToastProvider>');
  return toaster;
}
