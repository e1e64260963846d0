import { useId, useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';

/** A public text page: its title (also the browser tab's, React hoists <title>) and its content. */
export function ContentPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <article className="content-page">
      <title>{`${title} | Ruilplein`}</title>
      <h1>{title}</h1>
      {intro && <p className="lead">{intro}</p>}
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
    <div className="questions">
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
    <div className="disclosure">
      <Heading>
        <button type="button" aria-expanded={open} aria-controls={answerId} onClick={() => setOpen(!open)}>
          <span>{question}</span>
          <ChevronDown aria-hidden="true" size={20} />
        </button>
      </Heading>
      <div id={answerId} className="answer" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
