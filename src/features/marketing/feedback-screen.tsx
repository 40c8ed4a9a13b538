import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function FeedbackScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Feedback"
      lead="Tell us what works, what does not, and what you would like next."
      comingSoon="A form to send feedback straight to the people who build Satchel."
    />
  );
}
