import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ContactScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Contact us"
      lead="Questions, ideas or trouble? We read every message."
      comingSoon="A short form to reach the Satchel team, and how quickly we reply."
    />
  );
}
