/**
 * The FAQ, as plain text so it can be searched. Answers describe what Satchel does by design
 * (ARCHITECTURE.md, the product spec); nothing here promises more than that.
 */
export interface FaqItem {
  id: string;
  question: string;
  /** Paragraphs. */
  answer: readonly string[];
}

export interface FaqTopic {
  id: string;
  title: string;
  items: readonly FaqItem[];
}

export const faqTopics: readonly FaqTopic[] = [
  {
    id: 'offline',
    title: 'Working offline',
    items: [
      {
        id: 'offline-works',
        question: 'Does Satchel really work without an internet connection?',
        answer: [
          'Yes. Once you have signed in on a device, the app itself and the workspace data you have opened are kept on that device. You can read and edit clients, projects, tasks, notes and change requests with no signal at all.',
          'The top of the app always tells you where you stand: saved, a number of changes waiting, offline, or failed.',
        ],
      },
      {
        id: 'offline-changes',
        question: 'What happens to the changes I make offline?',
        answer: [
          'Each change is saved on your device first, in a queue, and sent in order as soon as you are back online. You do not need to press anything.',
          'If someone changed the same field while you were away, the later change wins and you are told about it. Long texts are never overwritten silently: your version is kept as a copy. Approvals, payments and status changes are checked against the current state, so an outdated one is refused rather than applied.',
        ],
      },
      {
        id: 'offline-limits',
        question: 'What does not work offline?',
        answer: [
          'Anything that needs someone else at the same moment: a client approving a milestone, a card payment, and messages reaching the other person. Messages and file uploads you make offline wait on your device and go out when you reconnect.',
        ],
      },
      {
        id: 'offline-install',
        question: 'Do I need to install an app?',
        answer: [
          'No. Satchel runs in any modern browser. You can also install it from the browser (Install, or Add to Home Screen on a phone) to get its own icon and window. It is the same app either way, with no app store involved.',
        ],
      },
    ],
  },
  {
    id: 'data',
    title: 'Your data',
    items: [
      {
        id: 'data-where',
        question: 'Where is my data stored?',
        answer: [
          'On our servers, in a PostgreSQL database, with files on our storage (Azure Blob Storage when it is configured). Each device you sign in on keeps a copy of what you opened, in the browser’s own storage.',
        ],
      },
      {
        id: 'data-device-lost',
        question: 'What if I lose my laptop or phone?',
        answer: [
          'The copy on a device is only a copy: sign in on another device and everything that was synced is there. Changes made offline on the lost device that never reached the server cannot be recovered, so the app shows how many changes are still waiting.',
        ],
      },
      {
        id: 'data-export',
        question: 'Can I export my data?',
        answer: [
          'Yes, everything you put into Satchel is yours. Ask through the contact form and we send you a full export of your workspace (your records as JSON, and your files). A self-service export in Settings is planned.',
        ],
      },
      {
        id: 'data-close',
        question: 'What happens to my data when I close my account?',
        answer: [
          'Your workspace, its files and your clients’ portal access are deleted within 30 days. Payment records that the law requires us to keep are kept for as long as it requires. The privacy policy has the details.',
        ],
      },
    ],
  },
  {
    id: 'portal',
    title: 'The client portal',
    items: [
      {
        id: 'portal-account',
        question: 'Do my clients need an account?',
        answer: [
          'No. You share a link and a password for a project. Your client opens the link on any device, enters the password and sees that project.',
        ],
      },
      {
        id: 'portal-sees',
        question: 'What can a client see?',
        answer: [
          'Only the project you shared with them: its progress, its milestones, the files you shared and its change requests. Never your internal notes, other projects or other clients.',
        ],
      },
      {
        id: 'portal-session',
        question: 'How long does a portal session last?',
        answer: [
          'A client is signed out after 30 minutes without activity and enters the password again to come back.',
        ],
      },
      {
        id: 'portal-do',
        question: 'What can a client do in the portal?',
        answer: [
          'Approve a milestone or send it back with a note, download files, follow the project chat and ask for a change, which you then price and they accept or decline.',
        ],
      },
    ],
  },
  {
    id: 'payments',
    title: 'Payments and plans',
    items: [
      {
        id: 'payments-clients',
        question: 'How do my clients pay me?',
        answer: [
          'By card, through Stripe: your client opens the invoice in the portal and pays on Stripe’s checkout page, and the payment shows on the invoice at once. Stripe’s processing fees apply. Card payments are part of the Pro and Agency plans; on Free, the portal shows your payment instructions (bank details or a payment link) instead.',
        ],
      },
      {
        id: 'payments-satchel',
        question: 'How do I pay for Satchel?',
        answer: [
          'By card, on a Stripe checkout page you open from Settings > Billing, monthly or yearly. Satchel never sees or stores your card number, you can cancel at any time, and your plan runs to the end of the period you paid for.',
        ],
      },
      {
        id: 'payments-downgrade',
        question: 'What happens if I move to a smaller plan?',
        answer: [
          'Nothing is deleted. If you are over a limit of the smaller plan, you cannot start new active projects, add members or upload files until you are back under it; everything else keeps working, for you and for your clients.',
        ],
      },
    ],
  },
  {
    id: 'security',
    title: 'Security',
    items: [
      {
        id: 'security-account',
        question: 'How is my account protected?',
        answer: [
          'Passwords are stored only as Argon2id hashes, never as text. You can add a second factor with an authenticator app, or sign in with Google.',
        ],
      },
      {
        id: 'security-portal',
        question: 'How are portal passwords and shared files protected?',
        answer: [
          'Portal passwords are hashed like account passwords, and password attempts are rate limited. A portal session only ever opens the one project it was created for. File downloads use signed links that expire after the time you choose.',
        ],
      },
      {
        id: 'security-transport',
        question: 'Is the connection encrypted?',
        answer: [
          'Yes, everything is served over HTTPS, and browsers are told never to use a plain connection to Satchel. The app also refuses to run scripts that do not come from Satchel itself.',
        ],
      },
    ],
  },
];

/** All the words of an item, for search. */
export function faqSearchText(item: FaqItem): string {
  return `${item.question} ${item.answer.join(' ')}`;
}
