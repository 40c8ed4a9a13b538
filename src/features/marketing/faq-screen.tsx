import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function FaqScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Frequently asked questions"
      comingSoon="Answers to common questions about offline use, syncing, the client portal, billing and your data."
    />
  );
}
