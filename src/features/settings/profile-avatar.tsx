import { useState } from 'react';
import { initials } from '../../ui/initials.ts';

export interface ProfileAvatarProps {
  url: string | null;
  name: string;
  size?: number;
}

/** The profile picture, or initials when there is none or it cannot be loaded. */
export function ProfileAvatar({ url, name, size = 64 }: ProfileAvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const style = { width: size, height: size };
  if (url && failedUrl !== url) {
    return (
      <img
        src={url}
        alt=""
        style={style}
        referrerPolicy="no-referrer"
        onError={() => setFailedUrl(url)}
        className="shrink-0 rounded-full border border-border object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={style}
      className="grid shrink-0 place-items-center rounded-full bg-brand-soft text-lg font-bold text-brand"
    >
      {initials(name)}
    </span>
  );
}
