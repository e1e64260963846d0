// Stylesheets are bundled by rspack; a plain `.css` import only adds it to the page (global).
declare module '*.css';

// A CSS module (see baseConfig): each class is a named export, camel-cased (`.sidebar-toggle` → `sidebarToggle`).
declare module '*.module.css' {
  const classes: { readonly [className: string]: string };
  export = classes;
}
