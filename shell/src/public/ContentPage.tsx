import { useId, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import * as styles from './ContentPage.module.css';

/** A public text page: its title and its content (the tab's title comes from pages.ts, see PageMeta.tsx). */
export function ContentPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <article className={styles.page}>
      <h1>{title}</h1>
      {intro && <p className={styles.lead}>{intro}</p>}
      {children}
    </article>
  );
}

export interface QuestionAndAnswer {
  question: string;
  answer: ReactNode;
}

/** Questions that each open their answer: a button with aria-expanded per question (WAI disclosure pattern). */
export function QuestionList({ items, level }: { items: readonly QuestionAndAnswer[]; level: 2 | 3 }) {
  return (
    <div className={styles.questions}>
      {items.map((item) => (
        <Disclosure key={item.question} level={level} question={item.question}>
          {item.answer}
        </Disclosure>
      ))}
    </div>
  );
}

function Disclosure({ question, level, children }: { question: string; level: 2 | 3; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const answerId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className={styles.disclosure}>
      <Heading>
        <button type="button" aria-expanded={open} aria-controls={answerId} onClick={() => setOpen(!open)}>
          <span>{question}</span>
          <ChevronDown aria-hidden="true" size={20} />
        </button>
      </Heading>
      <div id={answerId} className={styles.answer} hidden={!open}>
        {children}
      </div>
    </div>
  );
}
