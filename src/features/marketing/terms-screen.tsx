import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { LegalDocument, type LegalSection } from './legal-document.tsx';
import { sitePageTitle } from './site-pages.ts';

export const termsLastUpdated = '2026-11-22';

const sections: readonly LegalSection[] = [
  {
    id: 'agreement',
    title: 'These terms',
    body: (
      <>
        <p>
          These terms are the agreement between you and Satchel (“we”, “us”) when you use Satchel.
          By creating an account you accept them. If you create it for a business, you accept them
          for that business and confirm that you may.
        </p>
        <p>
          We wrote them to be read. How we handle personal data is in the{' '}
          <TextLink href="/privacy-policy">privacy policy</TextLink>, which is part of these terms.
        </p>
      </>
    ),
  },
  {
    id: 'service',
    title: 'What Satchel is',
    body: (
      <>
        <p>
          Satchel is a workspace for freelancers and agencies to manage clients, projects,
          milestones, tasks, files, notes, change requests, a calendar, chat and payments, with a
          client portal where your clients follow a project.
        </p>
        <p>
          It works offline by keeping a copy of your workspace on your devices. We improve Satchel
          all the time; if we remove a feature that a paid plan lists, we tell you at least 30 days
          before.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'Your account',
    body: (
      <ul>
        <li>You must be at least 16 and give us a real email address.</li>
        <li>
          Keep your password and devices safe. You are responsible for what happens in your account,
          including what members you invite do in your workspace.
        </li>
        <li>Tell us through the contact form if you think someone else is using your account.</li>
      </ul>
    ),
  },
  {
    id: 'content',
    title: 'Your content',
    body: (
      <>
        <p>
          What you put into Satchel stays yours. You give us permission to store, copy and display
          it only as needed to run Satchel for you: syncing it to your devices, showing it to your
          members, and showing what you share to your clients in the portal.
        </p>
        <p>
          You are responsible for your content and for having the right to use it, including the
          personal data of your clients. For that data you are the controller and we process it on
          your behalf, as the privacy policy describes.
        </p>
      </>
    ),
  },
  {
    id: 'portal',
    title: 'The client portal',
    body: (
      <p>
        You decide which projects to share and give your clients the link and the password. Anyone
        who has both can see that project, so share them only with the right people and change the
        password if it leaks. Your clients do not need an account, and these terms do not bind them;
        you are responsible for your own agreement with them.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>Do not use Satchel to:</p>
        <ul>
          <li>store or share anything illegal, or that you have no right to share;</li>
          <li>send spam or malware, or deceive people, through the portal, chat or files;</li>
          <li>probe, overload or break the service, or get around plan limits or rate limits;</li>
          <li>resell Satchel itself without a written agreement with us.</li>
        </ul>
        <p>We may remove content or suspend an account that breaks these rules.</p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Plans, payments and renewals',
    body: (
      <ul>
        <li>
          The Free plan costs nothing. Paid plans are billed in advance, monthly or yearly, through
          Stripe, at the prices on the <TextLink href="/pricing">pricing page</TextLink>, plus any
          taxes that apply.
        </li>
        <li>A paid plan renews on its own at the end of each period until you cancel it.</li>
        <li>
          You can cancel at any time in Settings. Your plan then runs to the end of the period you
          paid for. We do not refund part periods, except where the law requires it.
        </li>
        <li>
          We tell you at least 30 days before a price change applies to you, so you can cancel
          first.
        </li>
      </ul>
    ),
  },
  {
    id: 'limits',
    title: 'Plan limits',
    body: (
      <p>
        Each plan has limits on active projects, members and storage, listed on the pricing page. If
        you go over a limit, for example after moving to a smaller plan, nothing is deleted: you
        cannot start new active projects, add members or upload files until you are back under it.
      </p>
    ),
  },
  {
    id: 'client-payments',
    title: 'Payments from your clients',
    body: (
      <p>
        When your clients pay you through Satchel, the payment is processed by Stripe under your own
        agreement with Stripe and goes to your Stripe account. We are not a party to your contracts
        with your clients, and refunds and disputes are between you, your client and Stripe.
      </p>
    ),
  },
  {
    id: 'availability',
    title: 'Availability and offline copies',
    body: (
      <>
        <p>
          We work to keep Satchel available and your data safe, but cannot promise it will never be
          interrupted, for example during maintenance.
        </p>
        <p>
          Changes you make offline are kept on that device until they sync. If a device is lost or
          its browser data is cleared before it syncs, those changes are lost; the app always shows
          how many changes are waiting.
        </p>
      </>
    ),
  },
  {
    id: 'ending',
    title: 'Closing your account',
    body: (
      <p>
        You can close your account at any time; ask us for an export of your data first if you want
        one. We may close or suspend an account that seriously or repeatedly breaks these terms, and
        tell you why unless the law prevents it. After closing, your data is deleted within 30 days.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Liability',
    body: (
      <p>
        Satchel is provided as it is. To the extent the law allows, we are not liable for indirect
        losses such as lost profits, and our total liability is limited to what you paid us in the
        12 months before the claim. Nothing in these terms limits liability that the law does not
        allow to be limited, or your rights as a consumer.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        When we change these terms we update the date at the top. We tell account owners by email at
        least 30 days before a significant change applies. If you do not agree, you can close your
        account before then.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms go through the <TextLink href="/contact">contact form</TextLink>
        .
      </p>
    ),
  },
];

export function TermsScreen() {
  usePageTitle(sitePageTitle('/terms-of-service'));
  return (
    <LegalDocument
      title="Terms of service"
      lead="The agreement between you and Satchel: your account, your content, the client portal, plans and payments, and what each side can expect."
      lastUpdated={termsLastUpdated}
      sections={sections}
    />
  );
}
