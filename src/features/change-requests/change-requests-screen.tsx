import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ChangeRequestsScreen() {
  return (
    <PlaceholderPage
      title="Change requests"
      comingSoon="Every change your clients asked for across projects, to review, price, approve or decline."
    />
  );
}
