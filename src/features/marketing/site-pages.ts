/**
 * Every public page of the site, once: its title (document title and search-result name), the
 * description used for the meta tag and Open Graph, the words people search it by, and whether it
 * belongs in the sitemap. The prerender step, the sitemap, the not-found page's search and the
 * screens' titles all read this list.
 */
export interface SitePage {
  path: string;
  /** Shown as "<title> — Satchel"; null for the home page, which has the product's own title. */
  title: string | null;
  /** The name in search results and lists. */
  name: string;
  description: string;
  /** Extra words a visitor might search this page by. */
  keywords: readonly string[];
  /** Result pages of a payment are reached from Stripe, not from search engines. */
  indexable: boolean;
}

export const sitePages = [
  {
    path: '/',
    title: null,
    name: 'Home',
    description:
      'Satchel is the offline-first workspace for freelancers and agencies: clients, projects, milestones, tasks, files, chat and payments in one place, with a client portal your clients open on any phone.',
    keywords: ['start', 'overview', 'offline', 'portal', 'freelancer', 'agency'],
    indexable: true,
  },
  {
    path: '/features',
    title: 'Features',
    name: 'Features',
    description:
      'Every part of Satchel: clients, projects, milestones with client sign-off, tasks and kanban, files with expiring links, notes, change requests, calendar, chat, payments, notifications, the client portal and offline use.',
    keywords: [
      'clients',
      'projects',
      'milestones',
      'tasks',
      'kanban',
      'files',
      'notes',
      'change requests',
      'calendar',
      'chat',
      'payments',
      'subscriptions',
      'notifications',
      'install',
      'app',
    ],
    indexable: true,
  },
  {
    path: '/pricing',
    title: 'Pricing',
    name: 'Pricing',
    description:
      'Satchel is free for your first two active projects. Pro and Agency add unlimited projects, members, storage and a client portal in your own brand, billed monthly or yearly.',
    keywords: ['plans', 'price', 'cost', 'free', 'pro', 'agency', 'billing', 'yearly', 'monthly'],
    indexable: true,
  },
  {
    path: '/faq',
    title: 'Frequently asked questions',
    name: 'FAQ',
    description:
      'Answers about working offline, keeping your data safe, the client portal, payments, exporting your data and security in Satchel.',
    keywords: ['questions', 'help', 'answers', 'offline', 'security', 'export', 'data'],
    indexable: true,
  },
  {
    path: '/contact',
    title: 'Contact us',
    name: 'Contact',
    description:
      'Write to the people who build Satchel: questions, trouble with your account or billing, or anything else.',
    keywords: ['email', 'support', 'help', 'message', 'team', 'sales'],
    indexable: true,
  },
  {
    path: '/feedback',
    title: 'Feedback',
    name: 'Feedback',
    description:
      'Tell the Satchel team what works, what does not and what you would like next: rate it, pick a topic and write a few words.',
    keywords: ['idea', 'bug', 'report', 'suggestion', 'rating', 'review'],
    indexable: true,
  },
  {
    path: '/demo',
    title: 'Demo',
    name: 'Demo',
    description:
      'Try the real Satchel with no account: a sample workspace of clients, projects, tasks and invoices that lives only in your browser. Edit anything, reset it any time.',
    keywords: ['try', 'sandbox', 'example', 'sample', 'no account'],
    indexable: true,
  },
  {
    path: '/client-portal-demo',
    title: 'Client portal demo',
    name: 'Client portal demo',
    description:
      'What your clients see when you share a project with them in Satchel: progress, milestones to approve, files to download and change requests.',
    keywords: ['portal', 'client', 'share', 'example', 'approve'],
    indexable: true,
  },
  {
    path: '/terms-of-service',
    title: 'Terms of service',
    name: 'Terms of service',
    description:
      'The terms for using Satchel: your account, your content, the client portal, payments and plans, and what each side may expect.',
    keywords: ['terms', 'legal', 'agreement', 'conditions', 'contract'],
    indexable: true,
  },
  {
    path: '/privacy-policy',
    title: 'Privacy policy',
    name: 'Privacy policy',
    description:
      'What Satchel stores about you and your clients, where it is kept, for how long, who processes it and how to get it deleted.',
    keywords: ['privacy', 'gdpr', 'data', 'personal', 'cookies', 'delete', 'processors'],
    indexable: true,
  },
  {
    path: '/billing-success',
    title: 'Payment received',
    name: 'Payment received',
    description:
      'Your payment to Satchel went through. Stripe emails you a receipt, and the payment appears in billing.',
    keywords: ['payment', 'receipt'],
    indexable: false,
  },
  {
    path: '/billing-error',
    title: 'Payment failed',
    name: 'Payment failed',
    description:
      'Your payment did not go through and you have not been charged. Try again from billing, or contact us.',
    keywords: ['payment', 'card', 'declined'],
    indexable: false,
  },
  {
    path: '/subscription/success',
    title: 'Subscription active',
    name: 'Subscription active',
    description:
      'Your Satchel subscription is active: the new plan’s limits apply now, and it renews until you cancel it.',
    keywords: ['subscription', 'upgrade'],
    indexable: false,
  },
  {
    path: '/subscription/cancel',
    title: 'Checkout cancelled',
    name: 'Checkout cancelled',
    description:
      'The subscription checkout was left before paying, so no new plan started and nothing was charged.',
    keywords: ['subscription', 'cancel'],
    indexable: false,
  },
] as const satisfies readonly SitePage[];

export type SitePath = (typeof sitePages)[number]['path'];

export function getSitePage(path: SitePath): SitePage {
  const page = sitePages.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`No site page for ${path}`);
  return page;
}

/** The page's `title` for usePageTitle (undefined gives the product's own title). */
export function sitePageTitle(path: SitePath): string | undefined {
  return getSitePage(path).title ?? undefined;
}
