import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export interface ClientAccessScreenProps {
  projectId: string | undefined;
  clientId: string | undefined;
  /** Portal path to return to after a correct password. */
  redirect: string | undefined;
}

export function ClientAccessScreen({ projectId, clientId }: ClientAccessScreenProps) {
  return (
    <div data-project-id={projectId} data-client-id={clientId} className="mx-auto max-w-xl">
      <PlaceholderPage
        title="Client access"
        lead="Open the project your freelancer shared with you."
        comingSoon="Enter the password you were given to see your project's milestones, files and progress."
      />
    </div>
  );
}
