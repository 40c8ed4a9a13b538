import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export interface ProjectWorkspaceScreenProps {
  projectId: string;
  clientId: string;
}

export function ProjectWorkspaceScreen({ projectId, clientId }: ProjectWorkspaceScreenProps) {
  return (
    <div data-project-id={projectId} data-client-id={clientId}>
      <PlaceholderPage
        title="Project workspace"
        comingSoon="One project in full: tasks on a board, milestones, files, notes, the real-time chat with your client and the activity log."
      />
    </div>
  );
}
