import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export interface ProjectActivityScreenProps {
  projectId: string;
}

export function ProjectActivityScreen({ projectId }: ProjectActivityScreenProps) {
  return (
    <div data-project-id={projectId}>
      <PlaceholderPage
        title="Project activity"
        comingSoon="A timeline of everything that happened in this project: who changed what, and when."
      />
    </div>
  );
}
