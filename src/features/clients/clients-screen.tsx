import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ClientsScreen() {
  return (
    <PlaceholderPage
      title="Clients"
      comingSoon="Your clients with their contacts, projects and notes, searchable even offline."
    />
  );
}
