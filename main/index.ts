import { app, BrowserWindow } from 'electron';

// Placeholder shell until the desktop-app issue lands: one secure window.
app.whenReady().then(() => {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  void win.loadURL('about:blank');
});
