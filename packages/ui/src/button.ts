import * as styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'link';

/** The class of a button, or of a link that looks like one: `<button className={buttonClass()}>`, `<Link className={buttonClass('secondary')}>`. */
export const buttonClass = (variant: ButtonVariant = 'primary'): string => styles[variant] ?? '';
