import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export interface ClientDetailScreenProps {
  clientId: string;
}

export function ClientDetailScreen({ clientId }: ClientDetailScreenProps) {
  return (
    <div data-client-id={clientId}>
      <PlaceholderPage
        title="Client"
        comingSoon="One client in full: contact details, projects, notes, payments and portal access."
      />
    </div>
  );
}
