import { describe, expect, it } from 'vitest';
import { appRoutePaths } from './prerender-page.tsx';

describe('appRoutePaths', () => {
  it('lists every routed path of the tree (what the server answers 200 for), no layouts', () => {
    const paths = appRoutePaths();
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/pricing',
        '/login',
        '/dashboard',
        '/clients',
        '/clients/$id',
        '/projects',
        '/projects/$projectId/$clientId',
        '/projects/$projectId/activity',
        '/client/$clientId/project/$projectId',
        '/auth/confirm-registration',
        '/subscription/success',
      ]),
    );
    expect(paths.filter((path) => path.includes('_') && !path.includes('$'))).toEqual([]);
  });
});
