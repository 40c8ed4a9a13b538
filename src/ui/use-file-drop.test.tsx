import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFileDrop } from './use-file-drop.ts';

afterEach(cleanup);

function Zone({ onFiles, enabled }: { onFiles: (files: File[]) => void; enabled: boolean }) {
  const { dragging, dropProps } = useFileDrop(onFiles, enabled);
  return (
    <div data-testid="zone" data-dragging={dragging} {...dropProps}>
      <span data-testid="inner">inside</span>
    </div>
  );
}

const fileDrag = (files: File[]) => ({ dataTransfer: { types: ['Files'], files } });
const textDrag = { dataTransfer: { types: ['text/plain'], files: [] } };

describe('useFileDrop', () => {
  it('lights up for a file drag, stays lit over its children and hands the dropped files on', () => {
    const onFiles = vi.fn();
    render(<Zone onFiles={onFiles} enabled />);
    const zone = screen.getByTestId('zone');
    const file = new File(['x'], 'brief.pdf', { type: 'application/pdf' });
    expect(fireEvent.dragEnter(zone, fileDrag([file]))).toBe(false); // default prevented
    expect(zone.dataset.dragging).toBe('true');
    // jsdom's fireEvent.dragLeave drops relatedTarget: a MouseEvent of that type keeps it.
    const leave = (to: Element | null) =>
      fireEvent(zone, new MouseEvent('dragleave', { bubbles: true, relatedTarget: to }));
    leave(screen.getByTestId('inner'));
    expect(zone.dataset.dragging).toBe('true');
    leave(document.body);
    expect(zone.dataset.dragging).toBe('false');
    fireEvent.dragEnter(zone, fileDrag([file]));
    expect(fireEvent.dragOver(zone, fileDrag([file]))).toBe(false);
    expect(fireEvent.drop(zone, fileDrag([file]))).toBe(false);
    expect(onFiles).toHaveBeenCalledWith([file]);
    expect(zone.dataset.dragging).toBe('false');
  });

  it('leaves drags without files alone', () => {
    const onFiles = vi.fn();
    render(<Zone onFiles={onFiles} enabled />);
    const zone = screen.getByTestId('zone');
    expect(fireEvent.dragEnter(zone, textDrag)).toBe(true);
    expect(fireEvent.dragOver(zone, textDrag)).toBe(true);
    expect(zone.dataset.dragging).toBe('false');
    expect(fireEvent.drop(zone, textDrag)).toBe(true);
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('while disabled, still takes a file drop (so the browser does not open the file) but hands nothing on', () => {
    const onFiles = vi.fn();
    render(<Zone onFiles={onFiles} enabled={false} />);
    const zone = screen.getByTestId('zone');
    const file = new File(['x'], 'logo.png', { type: 'image/png' });
    expect(fireEvent.dragEnter(zone, fileDrag([file]))).toBe(false);
    expect(zone.dataset.dragging).toBe('false');
    expect(fireEvent.dragOver(zone, fileDrag([file]))).toBe(false);
    expect(fireEvent.drop(zone, fileDrag([file]))).toBe(false);
    expect(onFiles).not.toHaveBeenCalled();
  });
});
