import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadedModule } from './loaded-module.tsx';
import { useLoadedModule } from './use-loaded-module.ts';

afterEach(cleanup);

interface Greeting {
  greet: (name: string) => string;
}

function Greeter({ load, renders }: { load: () => Promise<Greeting>; renders: string[] }) {
  const loaded = useLoadedModule(load);
  const text = loaded ? loaded.greet('Ada') : 'Loading…';
  renders.push(text);
  return <p>{text}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

describe('useLoadedModule', () => {
  it('shows the module once it loads, and at once on every later mount without loading again', async () => {
    let resolve: (module: Greeting) => void = () => {};
    const load = vi.fn(
      () =>
        new Promise<Greeting>((done) => {
          resolve = done;
        }),
    );
    const first: string[] = [];
    const view = render(<Greeter load={load} renders={first} />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => {
      resolve({ greet: (name) => `Hello, ${name}` });
      await Promise.resolve();
    });
    expect(screen.getByText('Hello, Ada')).toBeTruthy();
    view.unmount();

    const second: string[] = [];
    render(<Greeter load={load} renders={second} />);
    // The first render of the second mount already has the module: no loading state flashes.
    expect(second[0]).toBe('Hello, Ada');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('hands a failed load to the nearest error boundary', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = () => Promise.reject(new Error('The chunk could not be fetched.'));
    render(
      <Boundary>
        <Greeter load={load} renders={[]} />
      </Boundary>,
    );
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The chunk could not be fetched.',
    );
    vi.restoreAllMocks();
  });

  it('drops an answer that arrives after the component left', async () => {
    let resolve: (module: Greeting) => void = () => {};
    const load = () =>
      new Promise<Greeting>((done) => {
        resolve = done;
      });
    const renders: string[] = [];
    const view = render(<Greeter load={load} renders={renders} />);
    view.unmount();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => {
      resolve({ greet: () => 'late' });
      await Promise.resolve();
    });
    expect(renders).toEqual(['Loading…']);
    expect(error).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('with `failed`, says so in place and loads again on retry', async () => {
    let fail = true;
    const load = vi.fn(() =>
      fail
        ? Promise.reject(new Error('offline'))
        : Promise.resolve<Greeting>({ greet: (name) => `Hello, ${name}` }),
    );
    render(
      <LoadedModule
        load={load}
        fallback={<p>Loading…</p>}
        failed={(retry) => (
          <button type="button" onClick={retry}>
            Try again
          </button>
        )}
      >
        {(module) => <p>{module.greet('Ada')}</p>}
      </LoadedModule>,
    );
    const retry = await screen.findByRole('button', { name: 'Try again' });
    fail = false;
    await act(async () => {
      retry.click();
      await Promise.resolve();
    });
    expect(await screen.findByText('Hello, Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
