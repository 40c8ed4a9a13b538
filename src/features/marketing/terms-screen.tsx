import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function TermsScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Terms of service"
      comingSoon="The terms that apply when you use Satchel, written to be read."
    />
  );
}
