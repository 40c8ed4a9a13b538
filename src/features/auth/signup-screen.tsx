import { TextLink } from '../../ui/text-link.tsx';
import { PlaceholderPage } from '../shell/placeholder-page.tsx';
import { usePreloadAppRoutes } from './use-preload-app-routes.ts';

export function SignupScreen() {
  usePreloadAppRoutes();
  return (
    <PlaceholderPage
      title="Create your account"
      lead="Free to start. No card needed."
      comingSoon="Sign up with your email or with Google, then name your workspace and invite your team."
    >
      <p className="mt-6 text-fg-muted">
        Already have an account? <TextLink href="/login">Sign in</TextLink>
      </p>
    </PlaceholderPage>
  );
}
