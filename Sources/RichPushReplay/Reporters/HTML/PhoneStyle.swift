/// The phone views' CSS: a 390-pixel frame (an iPhone's 390 points), the system font stack, the light and dark
/// schemes (the viewer's setting, the page's Light/Dark switch, or a screenshot's `html.light` / `html.dark`).
/// Line counts are not here: each text box carries its own clamp from the model.
enum PhoneStyle {
    static let fontStack =
        "-apple-system, \"SF Pro Text\", system-ui, \"Helvetica Neue\", \"Noto Sans CJK SC\", \"Noto Color Emoji\", sans-serif"

    static let light =
        "--pv-wall:linear-gradient(160deg,#9fc4f0,#d9c2ee 55%,#f4d6c4);--pv-platter:rgba(246,246,248,.9);"
        + "--pv-text:#000;--pv-muted:rgba(60,60,67,.66);--pv-button:rgba(255,255,255,.82);--pv-red:#ff3b30;"
        + "--pv-blue:#007aff;--pv-input:#fff;--pv-line:rgba(60,60,67,.18)"
    static let dark =
        "--pv-wall:linear-gradient(160deg,#102541,#3b2357 55%,#4a2a22);--pv-platter:rgba(38,38,42,.9);"
        + "--pv-text:#fff;--pv-muted:rgba(235,235,245,.6);--pv-button:rgba(58,58,62,.9);--pv-red:#ff453a;"
        + "--pv-blue:#0a84ff;--pv-input:#1c1c1e;--pv-line:rgba(84,84,88,.6)"

    static let css = """
        .pv{\(light)}
        @media (prefers-color-scheme:dark){.pv{\(dark)}}
        #ph-light:checked~main .pv,html.light .pv{\(light)}
        #ph-dark:checked~main .pv,html.dark .pv{\(dark)}
        #ph-light:checked~nav label[for=ph-light],#ph-dark:checked~nav label[for=ph-dark],\
        #ph-auto:checked~nav label[for=ph-auto]{background:var(--accent);border-color:var(--accent);color:#fff}
        .phones{display:flex;flex-wrap:wrap;gap:12px;margin:4px 0 8px;align-items:flex-start}
        .pv{margin:0;width:390px;max-width:100%;flex:none;font-family:\(fontStack);overflow-wrap:normal}
        .pv-caption{font-size:12px;color:var(--muted);margin:0 0 4px;display:flex;gap:8px;align-items:center}
        .pv-approx{border:1px dashed var(--muted);border-radius:6px;padding:0 5px;cursor:help;font-size:11px}
        .pv-screen{background:var(--pv-wall);border-radius:22px;padding:12px 8px;color:var(--pv-text)}
        .pv-platter{background:var(--pv-platter);border-radius:20px;padding:12px 14px;\
        box-shadow:0 2px 10px rgba(0,0,0,.12);-webkit-backdrop-filter:blur(20px);backdrop-filter:blur(20px)}
        .pv-head{display:flex;align-items:center;gap:8px;font-size:12px;line-height:16px;color:var(--pv-muted);\
        margin-bottom:4px}
        .pv-icon{position:relative;flex:none;width:20px;height:20px;border-radius:5px;background:var(--pv-blue);\
        color:#fff;font-size:12px;font-weight:600;display:flex;align-items:center;justify-content:center}
        .pv-badge{position:absolute;top:-7px;right:-9px;min-width:16px;height:16px;padding:0 4px;border-radius:8px;\
        background:var(--pv-red);color:#fff;font-size:10px;line-height:16px;text-align:center}
        .pv-app{text-transform:uppercase;letter-spacing:.02em;min-width:0;overflow:hidden;text-overflow:ellipsis;\
        white-space:nowrap}
        .pv-badge-label{margin-left:auto;white-space:nowrap}
        .pv-row{display:flex;gap:10px;align-items:flex-start}
        .pv-text{flex:1;min-width:0}
        .pv-titleline{display:flex;gap:8px;align-items:baseline}
        .pv-time{margin-left:auto;flex:none;font-size:13px;color:var(--pv-muted)}
        .pv-title,.pv-subtitle,.pv-body{margin:0;font-size:15px;line-height:20px;min-width:0;\
        overflow-wrap:break-word}
        .pv-title{font-weight:600;flex:1}
        .pv-subtitle{font-weight:500}
        .pv-one{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .pv-clamp{display:-webkit-box;-webkit-box-orient:vertical;overflow:hidden}
        .pv-thumb{flex:none;width:40px;height:40px;border-radius:8px;background-color:var(--pv-line);\
        background-repeat:no-repeat;margin-top:2px}
        .pv-thumb.missing,.pv-picture.missing{display:flex;align-items:center;justify-content:center;\
        color:var(--pv-muted)}
        .pv-wide{margin:-12px -14px 10px;border-radius:20px 20px 0 0;overflow:hidden}
        .pv-picture{width:100%;background-size:cover;background-position:center;background-repeat:no-repeat;\
        background-color:var(--pv-line)}
        .pv-picture.missing{height:120px}
        .pv-wide video{display:block;width:100%;background:#000}
        .pv-wide audio{display:block;width:calc(100% - 28px);margin:12px 14px 4px}
        .pv-duration{display:inline-block;margin:4px 14px;font-size:12px;color:var(--pv-muted)}
        .pv-why{margin:4px 14px;font-size:12px;color:var(--pv-muted)}
        .pv-actions{display:flex;flex-direction:column;gap:1px;margin:10px -14px -12px;\
        border-top:1px solid var(--pv-line);border-radius:0 0 20px 20px;overflow:hidden}
        .pv-action{font:inherit;font-size:16px;line-height:22px;text-align:left;border:0;\
        background:var(--pv-button);color:var(--pv-text);padding:11px 14px;display:flex;flex-wrap:wrap;\
        align-items:center;gap:4px 8px;cursor:default}
        .pv-action.destructive{color:var(--pv-red)}
        .pv-symbol{font-size:11px;color:var(--pv-muted);border:1px solid var(--pv-line);border-radius:4px;\
        padding:0 4px}
        .pv-marks{margin-left:auto;font-size:11px;color:var(--pv-muted)}
        .pv-inputbar{flex-basis:100%;display:flex;gap:8px;align-items:center;background:var(--pv-input);\
        border:1px solid var(--pv-line);border-radius:18px;padding:4px 4px 4px 12px}
        .pv-placeholder{flex:1;color:var(--pv-muted);font-size:15px}
        .pv-send{background:var(--pv-blue);color:#fff;border-radius:14px;padding:2px 10px;font-size:14px}
        .pv-left-out{margin:8px 0 0;font-size:12px;color:var(--pv-muted)}
        .pv-notes{margin:0 0 6px;padding-left:18px;color:var(--muted);font-size:13px}
        .thread-stack{margin:0 0 10px}
        .ts-label{margin:0 0 4px;font-size:13px;color:var(--muted)}
        .ts-stack{position:relative;width:390px;max-width:100%;padding-bottom:16px}
        .ts-stack .pv{width:100%;position:relative;z-index:1}
        .ts-stack .pv-caption{display:none}
        .ts-sheet{position:absolute;left:16px;right:16px;height:16px;border-radius:0 0 16px 16px;\
        background:var(--card);box-shadow:0 1px 2px rgba(0,0,0,.12)}
        .ts-sheet.s1{bottom:8px}.ts-sheet.s2{bottom:0;left:28px;right:28px;opacity:.7}
        .ts-more{margin:2px 0 0;font-size:13px}
        .ts-count{margin:0;width:390px;max-width:100%;text-align:center;font-weight:600;padding:10px 0;\
        border-radius:16px;background:var(--card,rgba(127,127,127,.15))}
        .ts-list{margin:2px 0 0;padding-left:18px;font-size:13px}
        .pv-level{flex:none;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.02em;\
        padding:0 5px;border-radius:4px}
        .pv-level.time-sensitive{color:#000;background:#ffcc00}
        .pv-level.critical{color:#fff;background:var(--pv-red)}
        .pv-dimmed .pv-screen{opacity:.4;filter:grayscale(.8)}
        .pv-not-shown{border-radius:6px;padding:0 6px;background:var(--chip);border:1px solid var(--line);\
        color:var(--text);font-size:11px}
        .delivery{margin:2px 0 6px;font-size:13px}
        .delivery p{margin:0 0 2px}
        .dl-kind{font-weight:600}
        .kind-heldByFocus .dl-kind,.kind-scheduledSummary .dl-kind{color:#a15c00}
        .dl-facts{display:flex;flex-wrap:wrap;gap:2px 14px;color:var(--muted)}
        .dl-level{border-radius:4px;padding:0 5px;border:1px solid var(--line);color:var(--text)}
        .dl-level.time-sensitive{background:#ffcc00;border-color:#ffcc00;color:#000;font-weight:600}
        .dl-level.critical{background:#ff3b30;border-color:#ff3b30;color:#fff;font-weight:600}
        .dl-breaks{display:flex;flex-wrap:wrap;gap:4px;list-style:none;padding:0;margin:2px 0}
        .dl-break{border-radius:999px;padding:1px 10px;background:#e3f0ff;color:#0a3d7a;border:1px solid #9cc3f5}
        .dl-previews{color:var(--muted)}
        .ss-card{background:var(--card);border-radius:18px;padding:10px 14px;margin:0 0 10px;\
        box-shadow:0 1px 2px rgba(0,0,0,.12)}
        .ss-card h2{font-size:17px;margin:0 0 2px}
        .ss-card .ss-about{margin:0 0 6px;color:var(--muted);font-size:13px}
        .ss-list{list-style:none;padding:0;margin:0;display:flex;flex-direction:column;gap:4px}
        .ss-item{display:flex;gap:10px;align-items:baseline;border-top:1px solid var(--line);padding:4px 0}
        .ss-item a{min-width:0;overflow-wrap:anywhere}
        .ss-score{margin-left:auto;flex:none;color:var(--muted);font-size:12px}
        .ss-file{color:var(--muted);font-size:12px;font-weight:400;min-width:0}
        .ss-item.featured{font-size:18px;font-weight:600;border-top:0;background:var(--chip);border-radius:12px;\
        padding:10px 12px}
        .ss-mark{flex:none;font-size:11px;font-weight:600;text-transform:uppercase;border-radius:4px;\
        padding:0 5px;background:var(--accent);color:#fff}
        .dm-table{border-collapse:collapse;font-size:13px;margin:4px 0 8px;width:100%}
        .dm-caption{caption-side:top;text-align:left;font-size:12px;color:var(--muted);padding:0 0 2px}
        .dm-table th,.dm-table td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
        .dm-table th{font-weight:600;color:var(--muted)}
        .dm-table td[title]{cursor:help}
        .dm-table td.dm-held,.dm-table td.dm-summary{color:#a15c00}
        .dm-table td.dm-quiet,.dm-table td.dm-nothing{color:var(--muted)}
        html.shot,html.shot body{margin:0;padding:0;background:transparent}
        html.shot .pv{width:390px}
        html.shot .pv-caption{display:none}
        html.shot .pv-screen{border-radius:0;min-height:100vh}
        """
}
