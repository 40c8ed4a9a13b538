/**
 * The sample project of the public client portal demo (/client-portal-demo): a made-up bakery's
 * website, in the shapes the portal's server answers, plus what only the server knows (which
 * milestones and files members hid from the client) so the demo's rules have something to refuse.
 *
 * Dates are relative to a given day, so the demo never shows a project that ended years ago; the
 * page passes the day its prerendered copy was made with, so taking that copy over changes no date.
 * The sample files are small and made here, in the browser: their listed size is their real size.
 */
import type {
  PortalChangeRequest,
  PortalFile,
  PortalMilestone,
  PortalProject,
  PortalWorkspace,
} from '#contract/endpoints/client-portal.ts';

export interface PortalDemoMilestone extends PortalMilestone {
  /** false: a member hid it; the portal never shows it and refuses its sign-off. */
  visibleToClient: boolean;
}

export interface PortalDemoFile extends PortalFile {
  visibleToClient: boolean;
  /** The bytes a download gives (text: a PDF, an SVG or plain text; a file the visitor attached). */
  content: string | Blob;
}

export interface PortalDemoSeed {
  project: PortalProject;
  /** The project's currency: a new change request is priced in it. */
  currency: string;
  workspace: PortalWorkspace;
  milestones: PortalDemoMilestone[];
  files: PortalDemoFile[];
  /** Newest first. */
  changeRequests: PortalChangeRequest[];
}

// Fixed ids (UUIDs, as the contract's id schema wants), so a link into the demo stays valid.
export const DEMO_PROJECT_ID = '5a7c4e10-0000-4000-8000-00000000d001';
export const DEMO_CLIENT_ID = '5a7c4e10-0000-4000-8000-00000000d002';
export const DEMO_WORKSPACE_ID = '5a7c4e10-0000-4000-8000-00000000d003';
const demoId = (n: number) => `5a7c4e10-0000-4000-8000-${String(n).padStart(12, '0')}`;

const CLIENT_NAME = 'Maya’s Bakery';
const STUDIO_NAME = 'Studio North';
const CURRENCY = 'USD';
const BRAND_COLOR = '#0f766e';

/** "YYYY-MM-DD" of a local date. */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of the day `day` ("YYYY-MM-DD") names, or of today when it is not a date. */
export function demoDay(day?: string | null): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  if (match) {
    const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (isoDay(date) === day) return date;
  }
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** The day a seed was made for, as the page keeps it ("YYYY-MM-DD"). */
export const demoDayKey = isoDay;

/** A small logo of the made-up studio, inline so that showing it loads nothing. */
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  `<rect width="64" height="64" rx="14" fill="${BRAND_COLOR}"/>` +
  '<path d="M16 44 32 16l16 28z" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round"/>' +
  '</svg>';
const logoUrl = `data:image/svg+xml,${encodeURIComponent(logoSvg)}`;

/** Text a PDF's Helvetica can show: ASCII, with PDF string escapes. */
function pdfText(value: string): string {
  return value
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[\\()]/g, (char) => `\\${char}`);
}

/**
 * A one-page PDF with a coloured band, a title and some lines: a real PDF any viewer opens, made
 * from text (all ASCII, so string offsets are byte offsets, as the cross-reference table needs).
 */
export function samplePdf(title: string, lines: readonly string[]): string {
  const body = [
    '0.059 0.463 0.431 rg 0 752 595 90 re f',
    `BT /F1 26 Tf 1 1 1 rg 56 786 Td (${pdfText(title)}) Tj ET`,
    '0.2 0.2 0.2 rg',
    ...lines.map(
      (line, index) => `BT /F1 13 Tf 56 ${700 - index * 22} Td (${pdfText(line)}) Tj ET`,
    ),
    '0.925 0.937 0.945 rg 56 300 230 150 re f 309 300 230 150 re f',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${body.length} >>\nstream\n${body}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}

const palette = [
  ['Crust', '#7c2d12'],
  ['Crumb', '#fde68a'],
  ['Icing', '#fdf2f8'],
  ['Studio teal', BRAND_COLOR],
] as const;

function paletteSvg(): string {
  const swatches = palette
    .map(
      ([name, hex], index) =>
        `<rect x="${24 + index * 148}" y="64" width="132" height="132" rx="16" fill="${hex}" stroke="#d4d4d8"/>` +
        `<text x="${24 + index * 148}" y="224" font-size="16" fill="#18181b">${name}</text>` +
        `<text x="${24 + index * 148}" y="246" font-size="14" fill="#52525b">${hex}</text>`,
    )
    .join('');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="280" viewBox="0 0 640 280" font-family="system-ui, sans-serif">' +
    '<rect width="640" height="280" fill="#fff"/>' +
    `<text x="24" y="40" font-size="20" font-weight="700" fill="#18181b">${CLIENT_NAME.replace('’', '&#8217;')}: colour palette (sample)</text>` +
    swatches +
    '</svg>'
  );
}

const menuCopy = [
  'Maya’s Bakery: menu copy (sample file from the Satchel client portal demo)',
  '',
  'BREAD',
  'Country sourdough: 36 hours of patience, a crackling crust.',
  'Seeded rye: dark, dense and made for butter.',
  '',
  'CAKES (order two days ahead)',
  'Lemon drizzle: bright, soft and never too sweet.',
  'Chocolate celebration cake: three layers, for eight to twelve people.',
  '',
  'Opening hours: Tuesday to Saturday, 7:00 to 15:00.',
  '',
].join('\n');

/** The sample project as it stands on `today` (local midnight). */
export function portalDemoSeed(today: Date): PortalDemoSeed {
  const day = (offset: number) =>
    isoDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset));
  const at = (offset: number, hours: number, minutes: number) =>
    new Date(
      today.getFullYear(),
      today.getMonth(),
      today.getDate() + offset,
      hours,
      minutes,
    ).toISOString();

  const milestone = (
    fields: Pick<PortalMilestone, 'title' | 'description' | 'dueDate' | 'amount' | 'status'> &
      Partial<PortalDemoMilestone>,
    n: number,
  ): PortalDemoMilestone => ({
    id: demoId(100 + n),
    currency: CURRENCY,
    position: `a${n}`,
    signOff: null,
    visibleToClient: true,
    ...fields,
  });

  const file = (
    fields: Pick<PortalFile, 'name' | 'folder' | 'type' | 'version' | 'updatedAt'> & {
      content: string;
      visibleToClient?: boolean;
    },
    n: number,
  ): PortalDemoFile => ({
    id: demoId(200 + n),
    blobName: demoId(300 + n),
    size: new TextEncoder().encode(fields.content).length,
    visibleToClient: true,
    ...fields,
  });

  return {
    currency: CURRENCY,
    project: {
      id: DEMO_PROJECT_ID,
      clientId: DEMO_CLIENT_ID,
      workspaceId: DEMO_WORKSPACE_ID,
      clientName: CLIENT_NAME,
      name: 'Website redesign',
      description:
        'A new website for the bakery: an easier menu, opening hours on every page and online orders for cakes.',
      status: 'active',
      startDate: day(-45),
      dueDate: day(40),
      updatedAt: at(-1, 16, 20),
    },
    workspace: {
      id: DEMO_WORKSPACE_ID,
      name: STUDIO_NAME,
      logoUrl,
      brandColor: BRAND_COLOR,
      welcomeText:
        'Hi Maya! This is where your new website stands. Approve each milestone when you’re happy with it, download the latest files, and ask us for changes whenever you like.',
      branding: 'workspace',
    },
    milestones: [
      milestone(
        {
          title: 'Discovery and moodboard',
          description: 'Interviews, the site map and a moodboard for the new look.',
          dueDate: day(-30),
          amount: 80_000,
          status: 'approved',
          signOff: { decision: 'approved', by: CLIENT_NAME, at: at(-29, 10, 14), comment: null },
        },
        0,
      ),
      milestone(
        {
          title: 'Homepage and menu pages',
          description:
            'Designs for the homepage and the three menu pages, with the new photos. See “Homepage design v3.pdf” under Files.',
          dueDate: day(2),
          amount: 240_000,
          status: 'awaiting_approval',
        },
        1,
      ),
      milestone(
        {
          title: 'Online ordering',
          description: 'Cake orders with a pickup time, paid online.',
          dueDate: day(25),
          amount: 180_000,
          status: 'in_progress',
        },
        2,
      ),
      // The studio's own step: hidden from the client, so the portal never lists it.
      milestone(
        {
          title: 'Internal QA pass',
          description: null,
          dueDate: day(35),
          amount: null,
          status: 'planned',
          visibleToClient: false,
        },
        3,
      ),
      milestone(
        {
          title: 'Launch',
          description: 'The new site goes live, with a week of fixes included.',
          dueDate: day(40),
          amount: 60_000,
          status: 'planned',
        },
        4,
      ),
    ],
    files: [
      file(
        {
          name: 'Colour palette.svg',
          folder: 'Brand',
          type: 'image/svg+xml',
          version: 1,
          updatedAt: at(-28, 15, 2),
          content: paletteSvg(),
        },
        0,
      ),
      file(
        {
          name: 'Menu copy.txt',
          folder: 'Content',
          type: 'text/plain',
          version: 2,
          updatedAt: at(-9, 11, 40),
          content: menuCopy,
        },
        1,
      ),
      file(
        {
          name: 'Homepage design v3.pdf',
          folder: 'Design',
          type: 'application/pdf',
          version: 3,
          updatedAt: at(-1, 17, 45),
          content: samplePdf('Homepage design v3', [
            `${CLIENT_NAME}: website redesign, by ${STUDIO_NAME}.`,
            'A sample file from the Satchel client portal demo.',
            'In your own portal, your client downloads your real files here,',
            'through short-lived signed links.',
          ]),
        },
        2,
      ),
      // Left hidden by a member: not listed, and no download link is ever signed for it.
      file(
        {
          name: 'Cost notes.txt',
          folder: 'Design',
          type: 'text/plain',
          version: 1,
          updatedAt: at(-3, 9, 0),
          content: 'Internal: hours per page.\n',
          visibleToClient: false,
        },
        3,
      ),
    ],
    changeRequests: [
      {
        id: demoId(402),
        title: 'Show opening hours on every page',
        description: 'In the footer, please: people keep calling to ask.',
        desiredDate: null,
        status: 'submitted',
        costImpact: null,
        currency: CURRENCY,
        scheduleImpactDays: null,
        answer: null,
        clientDecision: null,
        source: 'portal',
        attachmentFileIds: [],
        createdAt: at(-2, 9, 5),
        updatedAt: at(-2, 9, 5),
      },
      {
        id: demoId(401),
        title: 'Add a photo gallery page',
        description: 'A page of our cakes, so people can pick one before they order.',
        desiredDate: day(30),
        status: 'quoted',
        costImpact: 45_000,
        currency: CURRENCY,
        scheduleImpactDays: 3,
        answer:
          'A gallery page with up to 40 photos, linked from the menu. We can reuse the photos from the shoot.',
        clientDecision: null,
        source: 'portal',
        attachmentFileIds: [],
        createdAt: at(-6, 14, 32),
        updatedAt: at(-4, 11, 0),
      },
      {
        id: demoId(400),
        title: 'Swap the homepage photo',
        description: null,
        desiredDate: null,
        status: 'approved',
        costImpact: 0,
        currency: CURRENCY,
        scheduleImpactDays: 0,
        answer: 'Done: the croissant photo leads the homepage now.',
        clientDecision: null,
        source: 'member',
        attachmentFileIds: [],
        createdAt: at(-20, 13, 10),
        updatedAt: at(-19, 10, 30),
      },
    ],
  };
}
