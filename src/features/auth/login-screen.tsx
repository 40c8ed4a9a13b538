import { TextLink } from '../../ui/text-link.tsx';
import { PlaceholderPage } from '../shell/placeholder-page.tsx';
import { usePreloadAppRoutes } from './use-preload-app-routes.ts';

export function LoginScreen() {
  usePreloadAppRoutes();
  return (
    <PlaceholderPage
      title="Sign in"
      lead="Welcome back to your workspace."
      comingSoon="Sign in with your email and password or with Google, with two-factor verification when you have it turned on."
    >
      <p className="mt-6 text-fg-muted">
        New to Satchel? <TextLink href="/signup">Create an account</TextLink>
      </p>
    </PlaceholderPage>
  );
}
